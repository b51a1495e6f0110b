// POST/GET $graphql against the demo clinic over real HTTP (each kind of field, reverse lookups,
// Medplum compatibility; SPEC §7 "POST $graphql {query, operationName, variables}").
import { databases } from '../support/test-databases';
import { getGraphQL, idOf, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic } from '../../graphql/support/graphql-fixtures';

interface Named {
  given?: string[];
  family?: string;
}

describe.each(databases())('SPEC §7 $graphql queries on %s', (_engine, kind) => {
  let clinic: DemoClinic;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('reads a resource by id: scalars, arrays of structures, resourceType', async () => {
    const { status, body } = await postGraphQL<{
      Patient: { resourceType: string; id: string; name: Named[]; birthDate: string };
    }>(
      clinic.server,
      clinic.chen,
      `query ($id: ID!) { Patient(id: $id) { resourceType id name { given family } birthDate } }`,
      { id: idOf(clinic.mariaRef) },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.Patient).toMatchObject({ resourceType: 'Patient', id: idOf(clinic.mariaRef) });
    expect(body.data?.Patient.name[0].family).toBe('Garcia');
    expect(body.data?.Patient.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('choice types as Medplum names them, nested element types and references resolved through the ResourceList union', async () => {
    const { status, body } = await postGraphQL<{
      DiagnosticReportList: {
        id: string;
        effectiveDateTime: string;
        result: {
          reference: string;
          resource: {
            __typename: string;
            id: string;
            valueQuantity: { value: number; unit: string } | null;
            valueCodeableConcept: { text?: string } | null;
            referenceRange: { low: { value: number } | null }[] | null;
            specimen: { resource: { __typename: string; type: { text: string } } };
          };
        }[];
      }[];
    }>(
      clinic.server,
      clinic.chen,
      `query ($subject: String) {
        DiagnosticReportList(subject: $subject, _count: 50) {
          id effectiveDateTime
          result {
            reference
            resource {
              __typename
              ... on Observation {
                id valueQuantity { value unit } valueCodeableConcept { text }
                referenceRange { low { value } }
                specimen { resource { __typename ... on Specimen { type { text } } } }
              }
            }
          }
        }
      }`,
      { subject: clinic.mariaRef },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const reports = body.data?.DiagnosticReportList ?? [];
    expect(reports.length).toBe(7);
    const results = reports.flatMap((report) => report.result);
    expect(results.length).toBeGreaterThan(7);
    for (const result of results) {
      expect(result.resource.__typename).toBe('Observation');
      expect(result.reference).toBe(`Observation/${result.resource.id}`);
      expect(result.resource.specimen.resource.__typename).toBe('Specimen');
    }
    expect(results.some((r) => typeof r.resource.valueQuantity?.value === 'number')).toBe(true);
    expect(results.some((r) => r.resource.referenceRange?.[0]?.low?.value !== undefined)).toBe(true);
    expect(reports.every((report) => /^\d{4}-/.test(report.effectiveDateTime))).toBe(true);
  });

  it('list elements take _count, _offset, a fhirpath filter and property filters', async () => {
    const { body } = await postGraphQL<{
      DiagnosticReportList: {
        all: { reference: string }[];
        page: { reference: string }[];
        none: { reference: string }[];
        some: { reference: string }[];
        byProperty: { reference: string }[];
      }[];
    }>(
      clinic.server,
      clinic.chen,
      `query ($subject: String) {
        DiagnosticReportList(subject: $subject, _count: 50) {
          all: result { reference }
          page: result(_offset: 1, _count: 2) { reference }
          none: result(fhirpath: "reference.startsWith('Patient/')") { reference }
          some: result(fhirpath: "reference.startsWith('Observation/')", _count: 1) { reference }
          byProperty: result(reference: "no-such-reference") { reference }
        }
      }`,
      { subject: clinic.mariaRef },
    );
    expect(body.errors).toBeUndefined();
    const report = (body.data?.DiagnosticReportList ?? []).find((r) => r.all.length >= 3);
    expect(report).toBeDefined();
    expect(report?.page).toEqual(report?.all.slice(1, 3));
    expect(report?.none).toEqual([]);
    expect(report?.some).toEqual(report?.all.slice(0, 1));
    expect(report?.byProperty).toEqual([]);
  });

  it('a bad fhirpath expression is a field error carrying a 400 OperationOutcome', async () => {
    const { status, body } = await postGraphQL(
      clinic.server,
      clinic.chen,
      `query ($subject: String) { DiagnosticReportList(subject: $subject, _count: 1) { result(fhirpath: "((") { reference } } }`,
      { subject: clinic.mariaRef },
    );
    expect(status).toBe(200);
    expect(body.errors?.[0].message).toMatch(/Invalid fhirpath/);
    expect(body.errors?.[0].extensions?.status).toBe(400);
  });

  it('TypeList: search parameters as arguments, _sort, _count and _offset', async () => {
    const { body } = await postGraphQL<{ all: { id: string; sent: string }[]; page: { id: string }[] }>(
      clinic.server,
      clinic.chen,
      `query ($subject: String) {
        all: CommunicationList(subject: $subject, _sort: "-sent", _count: 100) { id sent }
        page: CommunicationList(subject: $subject, _sort: "-sent", _count: 3, _offset: 2) { id }
      }`,
      { subject: clinic.mariaRef },
    );
    expect(body.errors).toBeUndefined();
    const all = body.data?.all ?? [];
    // Her thread header and its 10 messages.
    expect(all).toHaveLength(11);
    const sent = all.map((c) => c.sent);
    expect(sent).toEqual([...sent].sort().reverse());
    expect(body.data?.page.map((c) => c.id)).toEqual(all.slice(2, 5).map((c) => c.id));
  });

  it("a date argument's comparison prefix works as in a search URL ('-' params written '_')", async () => {
    const { body: everything } = await postGraphQL<{ CommunicationList: { sent: string }[] }>(
      clinic.server,
      clinic.chen,
      `query ($s: String) { CommunicationList(subject: $s, _sort: "sent", _count: 100) { sent } }`,
      { s: clinic.mariaRef },
    );
    const sent = (everything.data?.CommunicationList ?? []).map((c) => c.sent);
    const middle = sent[5];
    const { body } = await postGraphQL<{ CommunicationList: { sent: string }[] }>(
      clinic.server,
      clinic.chen,
      `query ($s: String, $after: String) { CommunicationList(subject: $s, sent: $after, _count: 100) { sent } }`,
      { s: clinic.mariaRef, after: `ge${middle}` },
    );
    expect(body.errors).toBeUndefined();
    const later = (body.data?.CommunicationList ?? []).map((c) => c.sent).sort();
    expect(later).toEqual(sent.filter((s) => s >= middle));
  });

  it('TypeConnection: count, offset, pageSize, edges { mode resource } and next', async () => {
    const { body } = await postGraphQL<{
      CommunicationConnection: {
        count: number;
        offset: number;
        pageSize: number;
        next: string | null;
        edges: { mode: string; score: number | null; resource: { id: string } }[];
      };
      last: { next: string | null; edges: unknown[] };
    }>(
      clinic.server,
      clinic.chen,
      `query ($s: String) {
        CommunicationConnection(subject: $s, _count: 3, _offset: 3) {
          count offset pageSize next edges { mode score resource { id } }
        }
        last: CommunicationConnection(subject: $s, _count: 3, _offset: 9) { next edges { mode } }
      }`,
      { s: clinic.mariaRef },
    );
    expect(body.errors).toBeUndefined();
    const connection = body.data?.CommunicationConnection;
    // Her thread header and its 10 messages.
    expect(connection).toMatchObject({ count: 11, offset: 3, pageSize: 3, next: '6' });
    expect(connection?.edges).toHaveLength(3);
    expect(connection?.edges.every((e) => e.mode === 'match' && e.resource.id)).toBe(true);
    expect(body.data?.last.next).toBeNull();
    expect(body.data?.last.edges).toHaveLength(2);
  });

  it('reverse lookups: OtherTypeList(_reference: param) on a resource find what points at it', async () => {
    const { body } = await postGraphQL<{
      Patient: {
        CommunicationList: { id: string }[];
        DiagnosticReportList: { id: string }[];
        ObservationList: { id: string }[];
      };
      direct: { id: string }[];
    }>(
      clinic.server,
      clinic.chen,
      `query ($id: ID!, $ref: String) {
        Patient(id: $id) {
          CommunicationList(_reference: subject, _count: 100) { id }
          DiagnosticReportList(_reference: subject, _count: 100) { id }
          ObservationList(_reference: subject, _count: 2, _sort: "-date") { id }
        }
        direct: CommunicationList(subject: $ref, _count: 100) { id }
      }`,
      { id: idOf(clinic.mariaRef), ref: clinic.mariaRef },
    );
    expect(body.errors).toBeUndefined();
    const ids = (list: { id: string }[] | undefined) => (list ?? []).map((r) => r.id).sort();
    expect(ids(body.data?.Patient.CommunicationList)).toEqual(ids(body.data?.direct));
    expect(body.data?.Patient.CommunicationList).toHaveLength(11);
    expect(body.data?.Patient.DiagnosticReportList).toHaveLength(7);
    expect(body.data?.Patient.ObservationList).toHaveLength(2);
  });

  it("an unknown _reference value is refused before anything runs (it is an enum of the child type's reference parameters)", async () => {
    const { status, body } = await postGraphQL(
      clinic.server,
      clinic.chen,
      `{ Patient(id: "x") { CommunicationList(_reference: nonsense) { id } } }`,
    );
    expect(status).toBe(400);
    expect(body.resourceType).toBe('OperationOutcome');
  });

  it('Medplum compatibility: the CommunicationList query written for Medplum runs unchanged', async () => {
    const query = `{
      CommunicationList(subject: "${clinic.mariaRef}", _sort: "-sent") {
        id
        partOf { reference }
        sender { display resource { ... on Practitioner { name { given family } } } }
        payload { contentString }
      }
    }`;
    const { status, body } = await postGraphQL<{
      CommunicationList: {
        id: string;
        partOf: { reference: string }[] | null;
        sender: { display: string; resource: { name?: Named[] } };
        payload: { contentString: string }[];
      }[];
    }>(clinic.server, clinic.chen, query);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const all = body.data?.CommunicationList ?? [];
    // Her thread header (no partOf, no payload) and its 10 messages.
    const [header, ...others] = [...all].sort(
      (a, b) => Number(a.partOf !== null) - Number(b.partOf !== null),
    );
    expect(header).toMatchObject({ partOf: null, payload: null });
    const messages = others;
    expect(messages).toHaveLength(10);
    expect(messages.every((m) => m.partOf?.[0]?.reference === `Communication/${header.id}`)).toBe(true);
    const fromChen = messages.filter((m) => m.sender.resource.name);
    expect(fromChen.length).toBeGreaterThan(0);
    expect(fromChen[0].sender.resource.name?.[0]).toEqual({ given: ['Lily'], family: 'Chen' });
    expect(messages.every((m) => m.payload[0].contentString.length > 0)).toBe(true);
  });

  it('GET $graphql with query, variables and operationName', async () => {
    const { status, contentType, body } = await getGraphQL<{ Patient: { id: string } }>(
      clinic.server,
      clinic.chen,
      {
        query: 'query A($id: ID!) { Patient(id: $id) { id } } query B { PatientList { id } }',
        variables: JSON.stringify({ id: idOf(clinic.mariaRef) }),
        operationName: 'A',
      },
    );
    expect(status).toBe(200);
    expect(contentType).toMatch(/^application\/json/);
    expect(body.data?.Patient.id).toBe(idOf(clinic.mariaRef));
  });

  it('a missing resource is a field error with a 404 OperationOutcome, the rest of the data still answered', async () => {
    const { status, body } = await postGraphQL<{ Patient: null; PatientList: { id: string }[] }>(
      clinic.server,
      clinic.chen,
      `{ Patient(id: "00000000-0000-4000-8000-000000000000") { id } PatientList(_count: 1) { id } }`,
    );
    expect(status).toBe(200);
    expect(body.data?.Patient).toBeNull();
    expect(body.data?.PatientList).toHaveLength(1);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]).toMatchObject({ message: 'Not found', path: ['Patient'] });
    expect(body.errors?.[0].extensions).toMatchObject({
      status: 404,
      outcome: { resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] },
    });
  });
});
