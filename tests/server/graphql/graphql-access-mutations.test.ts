// Access control through GraphQL exactly like REST (SPEC §6): a patient's query never
// reveals another patient's data, not even a count, and a hidden resource answers exactly as a
// missing one. Mutations TypeCreate / TypeUpdate / TypeDelete pass the same validation and rights.
import type { Observation } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { idOf, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic, GraphQLResponseBody } from '../../graphql/support/graphql-fixtures';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(databases())('SPEC §6 access control and mutations through $graphql on %s', (_engine, kind) => {
  let clinic: DemoClinic;
  let aishaObservationId: string;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
    const { body } = await postGraphQL<{ ObservationList: { id: string }[] }>(
      clinic.server,
      clinic.chen,
      `query ($s: String) { ObservationList(subject: $s, _count: 1) { id } }`,
      { s: clinic.aishaRef },
    );
    aishaObservationId = body.data?.ObservationList[0].id as string;
    expect(aishaObservationId).toBeDefined();
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it("a patient's lists and counts hold only their own compartment", async () => {
    const { body } = await postGraphQL<{
      PatientList: { id: string }[];
      PatientConnection: { count: number };
      theirs: { count: number; edges: unknown[] };
      mine: { count: number };
    }>(
      clinic.server,
      clinic.maria,
      `query ($aisha: String, $maria: String) {
        PatientList(_count: 100) { id }
        PatientConnection { count }
        theirs: ObservationConnection(subject: $aisha) { count edges { resource { id } } }
        mine: CommunicationConnection(subject: $maria) { count }
      }`,
      { aisha: clinic.aishaRef, maria: clinic.mariaRef },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.PatientList).toEqual([{ id: idOf(clinic.mariaRef) }]);
    expect(body.data?.PatientConnection.count).toBe(1);
    expect(body.data?.theirs).toEqual({ count: 0, edges: [] });
    // Her demo thread: its header and its 10 messages.
    expect(body.data?.mine.count).toBe(11);
  });

  it("another patient's resource by id answers exactly like a missing one", async () => {
    const query = `query ($a: ID!, $b: ID!) { hidden: Observation(id: $a) { id } missing: Observation(id: $b) { id } }`;
    const { status, body } = await postGraphQL<{ hidden: null; missing: null }>(
      clinic.server,
      clinic.maria,
      query,
      { a: aishaObservationId, b: MISSING_ID },
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ hidden: null, missing: null });
    const [hidden, missing] = body.errors ?? [];
    expect(hidden.path).toEqual(['hidden']);
    expect(missing.path).toEqual(['missing']);
    expect({ ...hidden, path: undefined, locations: undefined }).toEqual({
      ...missing,
      path: undefined,
      locations: undefined,
    });
    expect(JSON.stringify(body)).not.toContain(idOf(clinic.aishaRef));
  });

  it('reverse lookups from a visible resource never reach into another compartment', async () => {
    const { body } = await postGraphQL<{
      Patient: { ObservationList: { subject: { reference: string } }[] };
    }>(
      clinic.server,
      clinic.maria,
      `query ($id: ID!) { Patient(id: $id) { ObservationList(_reference: subject, _count: 1000) { subject { reference } } } }`,
      { id: idOf(clinic.mariaRef) },
    );
    const subjects = new Set(body.data?.Patient.ObservationList.map((o) => o.subject.reference));
    expect([...subjects]).toEqual([clinic.mariaRef]);
  });

  it("a reference resolves exactly when REST's read would: a hidden target answers like a dangling one", async () => {
    const restStatus = async (reference: string) =>
      (
        await fetch(`${clinic.server.fhirUrl}${reference}`, {
          headers: { authorization: `Bearer ${clinic.maria.access_token}` },
        })
      ).status;
    const missingRef = `Patient/${MISSING_ID}`;
    // A message in Maria's compartment naming Aisha, a missing patient and Dr Chen as recipients.
    const created = await postGraphQL<{ CommunicationCreate: { id: string } }>(
      clinic.server,
      clinic.chen,
      `mutation ($res: CommunicationCreate!) { CommunicationCreate(res: $res) { id } }`,
      {
        res: {
          resourceType: 'Communication',
          status: 'completed',
          subject: { reference: clinic.mariaRef },
          recipient: [
            { reference: clinic.aishaRef },
            { reference: missingRef },
            { reference: clinic.chenRef },
          ],
        },
      },
    );
    const id = created.body.data?.CommunicationCreate.id as string;
    expect(await restStatus(clinic.aishaRef)).toBe(404);
    expect(await restStatus(missingRef)).toBe(404);
    expect(await restStatus(clinic.chenRef)).toBe(200);

    const { status, body } = await postGraphQL<{
      Communication: { recipient: { reference: string; resource: { name?: { family: string }[] } | null }[] };
    }>(
      clinic.server,
      clinic.maria,
      `query ($id: ID!) { Communication(id: $id) { recipient { reference resource { ... on Patient { id name { family } } ... on Practitioner { name { family } } } } } }`,
      { id },
    );
    expect(status).toBe(200);
    const [aisha, missing, chen] = body.data?.Communication.recipient ?? [];
    expect(aisha.resource).toBeNull();
    expect(missing.resource).toBeNull();
    expect(chen.resource?.name?.[0].family).toBe('Chen');
    expect(body.errors?.map((e) => e.path)).toEqual([
      ['Communication', 'recipient', 0, 'resource'],
      ['Communication', 'recipient', 1, 'resource'],
    ]);
    const [hiddenError, missingError] = body.errors ?? [];
    expect({ ...hiddenError, path: undefined }).toEqual({ ...missingError, path: undefined });
    expect(JSON.stringify(body)).not.toMatch(/Khan|Aisha/);
  });

  it('an unauthenticated request is a 401 OperationOutcome', async () => {
    const { status, body } = await postGraphQL(clinic.server, undefined, '{ PatientList { id } }');
    expect(status).toBe(401);
    expect(body.resourceType).toBe('OperationOutcome');
  });

  async function mutate<T>(tokens: DemoClinic['chen'], query: string, variables: Record<string, unknown>) {
    return postGraphQL<T>(clinic.server, tokens, query, variables);
  }

  it('TypeCreate, TypeUpdate and TypeDelete write through the Repository (as REST sees them)', async () => {
    const created = await mutate<{ ObservationCreate: Observation }>(
      clinic.chen,
      `mutation ($res: ObservationCreate!) { ObservationCreate(res: $res) { id status code { text } subject { reference } meta { versionId } } }`,
      {
        res: {
          resourceType: 'Observation',
          status: 'preliminary',
          code: { text: 'GraphQL weight' },
          subject: { reference: clinic.mariaRef },
          valueQuantity: { value: 70.5, unit: 'kg' },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const observation = created.body.data?.ObservationCreate as Observation;
    expect(observation).toMatchObject({ status: 'preliminary', subject: { reference: clinic.mariaRef } });
    const restRead = await fetch(`${clinic.server.fhirUrl}Observation/${observation.id}`, {
      headers: { authorization: `Bearer ${clinic.chen.access_token}` },
    });
    expect(((await restRead.json()) as Observation).valueQuantity?.value).toBe(70.5);

    const updated = await mutate<{ ObservationUpdate: Observation }>(
      clinic.chen,
      `mutation ($id: ID!, $res: ObservationUpdate!) { ObservationUpdate(id: $id, res: $res) { id status meta { versionId } } }`,
      {
        id: observation.id,
        res: {
          resourceType: 'Observation',
          status: 'final',
          code: { text: 'GraphQL weight' },
          subject: { reference: clinic.mariaRef },
        },
      },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data?.ObservationUpdate.status).toBe('final');
    expect(updated.body.data?.ObservationUpdate.meta?.versionId).not.toBe(observation.meta?.versionId);

    const deleted = await mutate<{ ObservationDelete: null }>(
      clinic.chen,
      `mutation ($id: ID!) { ObservationDelete(id: $id) { id } }`,
      { id: observation.id },
    );
    expect(deleted.body).toEqual({ data: { ObservationDelete: null } });
    const afterDelete = await fetch(`${clinic.server.fhirUrl}Observation/${observation.id}`, {
      headers: { authorization: `Bearer ${clinic.chen.access_token}` },
    });
    expect(afterDelete.status).toBe(410);
  });

  function firstErrorStatus(body: GraphQLResponseBody<unknown>): number | undefined {
    return body.errors?.[0]?.extensions?.status;
  }

  it('a patient may create a message in their own compartment but not a Patient, and cannot touch another patient', async () => {
    const message = await mutate<{ CommunicationCreate: { id: string } }>(
      clinic.maria,
      `mutation ($res: CommunicationCreate!) { CommunicationCreate(res: $res) { id } }`,
      {
        res: {
          resourceType: 'Communication',
          status: 'in-progress',
          subject: { reference: clinic.mariaRef },
          sender: { reference: clinic.mariaRef },
          payload: [{ contentString: 'Sent through GraphQL' }],
        },
      },
    );
    expect(message.body.errors).toBeUndefined();
    expect(message.body.data?.CommunicationCreate.id).toBeDefined();

    const patient = await mutate(
      clinic.maria,
      `mutation ($res: PatientCreate!) { PatientCreate(res: $res) { id } }`,
      { res: { resourceType: 'Patient', name: [{ family: 'Intruder' }] } },
    );
    expect(firstErrorStatus(patient.body)).toBe(403);

    const theirs = await mutate(clinic.maria, `mutation ($id: ID!) { ObservationDelete(id: $id) { id } }`, {
      id: aishaObservationId,
    });
    expect(firstErrorStatus(theirs.body)).toBe(404);
    const stillThere = await postGraphQL<{ Observation: { id: string } }>(
      clinic.server,
      clinic.chen,
      `query ($id: ID!) { Observation(id: $id) { id } }`,
      { id: aishaObservationId },
    );
    expect(stillThere.body.data?.Observation.id).toBe(aishaObservationId);
  });

  it('bad mutation input: invalid content is a 400 field error; a missing required field or wrong type is refused before running', async () => {
    const invalidStatus = await mutate(
      clinic.chen,
      `mutation ($res: ObservationCreate!) { ObservationCreate(res: $res) { id } }`,
      { res: { resourceType: 'Observation', status: 'not-a-status', code: { text: 'x' } } },
    );
    expect(invalidStatus.status).toBe(200);
    expect(firstErrorStatus(invalidStatus.body)).toBe(400);
    expect(invalidStatus.body.data).toEqual({ ObservationCreate: null });

    const wrongType = await mutate(
      clinic.chen,
      `mutation ($res: ObservationCreate!) { ObservationCreate(res: $res) { id } }`,
      { res: { resourceType: 'Patient', status: 'final', code: { text: 'x' } } },
    );
    expect(firstErrorStatus(wrongType.body)).toBe(400);
    expect(wrongType.body.errors?.[0].message).toMatch(/resourceType must be Observation/);

    const missingStatus = await mutate(
      clinic.chen,
      `mutation ($res: ObservationCreate!) { ObservationCreate(res: $res) { id } }`,
      { res: { resourceType: 'Observation', code: { text: 'x' } } },
    );
    expect(missingStatus.status).toBe(400);
    expect(missingStatus.body.resourceType).toBe('OperationOutcome');
    expect(JSON.stringify(missingStatus.body.issue)).toMatch(/status/);

    const mismatchedId = await mutate(
      clinic.chen,
      `mutation ($res: ObservationUpdate!) { ObservationUpdate(id: "abc", res: $res) { id } }`,
      { res: { resourceType: 'Observation', id: 'def', status: 'final', code: { text: 'x' } } },
    );
    expect(firstErrorStatus(mismatchedId.body)).toBe(400);
  });
});
