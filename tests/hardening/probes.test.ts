// An attacker's probes as one table, run over real HTTP against the demo clinic on PGlite and
// PostgreSQL: one patient's token against another patient's data (every route group: REST, search
// in every way to name a subject, compartments, operations, GraphQL, batch and transaction, writes,
// binaries, export, subscriptions, messaging, FHIRcast, bots and agents, admin), and forged, stale
// or replayed tokens and sign-in steps. Each row says what "held" means; the test prints how many
// held per family (the figures the README's security section quotes) and fails on any that did not.
// SPEC §6 (access policies), §7 (authentication).
import type { Bundle, BundleEntry, JsonWebKey as JsonWebKeyResource, Resource } from '@medplum/fhirtypes';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';
import { findActiveJsonWebKeys } from '../../src/server/repo/lookups';
import { Repository, systemContext } from '../../src/server/repo';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  PASSWORD,
  pkce,
  postForm,
  postJson,
  setPasswordLink,
  signIn,
} from '../server/auth/support/auth-fixtures';
import type { JsonResponse, Tokens } from '../server/auth/support/auth-fixtures';
import { call, startClinic, tempDataDir } from '../server/operations/support/clinic';
import type { Clinic, HttpResponse } from '../server/operations/support/clinic';
import { databases } from '../server/support/test-databases';
import { outboxEmails } from '../server/support/test-server';

type Family = 'cross-patient' | 'token and sign-in';

interface Verdict {
  held: boolean;
  /** Why it did not hold (status and the start of the answer). */
  detail?: string;
}

interface Probe {
  family: Family;
  name: string;
  run(): Promise<Verdict>;
}

/** A patient's view of herself and of the patient she probes. */
interface Party {
  tokens: Tokens;
  patientId: string;
  /** Her given and family names. */
  names: string[];
  /** One resource of each type in her compartment, by type. */
  byType: Map<string, Resource>;
  /** Ids of every resource in her compartment (what must never show in another patient's answers). */
  ids: string[];
}

/** The password the sign-in rows set by a reset link or a change. */
const NEW_PASSWORD = 'Quiet-Meadow-Lantern-7';
const WRITE_REFUSED = [400, 401, 403, 404, 405, 409, 412, 422];
const UNAUTHENTICATED = [401];

function describeAnswer(answer: HttpResponse): string {
  return `${answer.status} ${answer.text.slice(0, 200)}`;
}

/** The victim's ids and names that appear in the answer without the request having named them. */
function leakedMarkers(victim: Party, request: string, answer: string): string[] {
  const markers = [victim.patientId, ...victim.names, ...victim.ids];
  return markers.filter(
    (marker) => marker.length > 2 && !request.includes(marker) && answer.includes(marker),
  );
}

describe.each(databases())('attack probes on %s', (engine, kind) => {
  let clinic: Clinic;
  let maria: Party;
  let aisha: Party;
  let snapshotBefore = '';
  const results: { probe: Probe; verdict: Verdict }[] = [];

  /** A patient's whole compartment as the clinic admin sees it. */
  function everythingOf(patientId: string): Promise<HttpResponse<Bundle>> {
    return call<Bundle>(
      clinic.server,
      'GET',
      `fhir/R4/Patient/${patientId}/$everything?_count=1000`,
      clinic.admin,
    );
  }

  async function party(tokens: Tokens): Promise<Party> {
    const patientId = (tokens.profile?.reference as string).split('/')[1];
    const everything = await everythingOf(patientId);
    expect(everything.status).toBe(200);
    const resources = (everything.body.entry ?? []).map((entry) => entry.resource as Resource);
    const own = resources.filter(
      (resource) => resource.id !== patientId && JSON.stringify(resource).includes(`Patient/${patientId}`),
    );
    const patient = resources.find((resource) => resource.id === patientId) as {
      name?: { given?: string[]; family?: string }[];
    };
    const names = (patient.name ?? []).flatMap((name) => [...(name.given ?? []), name.family ?? '']);
    const byType = new Map<string, Resource>();
    for (const resource of own) {
      if (!byType.has(resource.resourceType)) byType.set(resource.resourceType, resource);
    }
    return { tokens, patientId, names: names.filter(Boolean), byType, ids: own.map((r) => r.id as string) };
  }

  /** What the victim's compartment looks like to the clinic admin: ids and versions, to see nothing changed. */
  async function snapshot(victim: Party): Promise<string> {
    const everything = await everythingOf(victim.patientId);
    return (everything.body.entry ?? [])
      .map(
        (entry) => `${entry.resource?.resourceType}/${entry.resource?.id}/${entry.resource?.meta?.versionId}`,
      )
      .sort()
      .join('\n');
  }

  beforeAll(async () => {
    clinic = await startClinic(kind, { DATA_DIR: tempDataDir() });
    [maria, aisha] = await Promise.all([party(clinic.maria), party(clinic.aisha)]);
    snapshotBefore = (await snapshot(maria)) + (await snapshot(aisha));
  }, 180_000);

  afterAll(async () => {
    const count = (family: Family) => {
      const rows = results.filter((result) => result.probe.family === family);
      return `${rows.filter((result) => result.verdict.held).length} of ${rows.length} held`;
    };
    console.log(
      `probes on ${engine}: cross-patient ${count('cross-patient')}; token and sign-in ${count('token and sign-in')}`,
    );
    await clinic?.server.close();
  });

  // ---------------------------------------------------------------------------------------------
  // Cross-patient: the attacker's own token, the victim's data.

  interface CrossRow {
    name: string;
    method: string;
    path: (victim: Party, attacker: Party) => string;
    body?: (victim: Party, attacker: Party) => unknown;
    contentType?: string;
    /** A write: held only when refused. A read: held when no victim data comes back (any 2xx or 4xx). */
    write?: boolean;
    /**
     * A write that may succeed on the attacker's own data only: held when no victim data comes back;
     * that nothing of the victim's changed is the last cross-patient row's check.
     */
    ownScope?: boolean;
  }

  const first = (party: Party, type: string): Resource | undefined => party.byType.get(type);
  const idOf = (party: Party, type: string) => first(party, type)?.id ?? 'none';

  const COMPARTMENT_TYPES = [
    'Observation',
    'Condition',
    'Communication',
    'Encounter',
    'QuestionnaireResponse',
    'DocumentReference',
    'CarePlan',
    'Appointment',
    'MedicationRequest',
    'AllergyIntolerance',
    'DiagnosticReport',
    'Immunization',
  ];

  /** A GraphQL document sent to $graphql (`write` for a mutation: held only when refused). */
  function graphqlRow(
    name: string,
    query: (victim: Party, attacker: Party) => string,
    write?: boolean,
  ): CrossRow {
    return {
      name,
      method: 'POST',
      path: () => 'fhir/R4/$graphql',
      body: (v, a) => ({ query: query(v, a) }),
      write,
    };
  }

  /** A create of the resource `body` makes, at its type's endpoint: held only when refused. */
  function createRow(
    name: string,
    body: (victim: Party, attacker: Party) => { resourceType: string },
  ): CrossRow {
    return { name, method: 'POST', path: (v, a) => `fhir/R4/${body(v, a).resourceType}`, body, write: true };
  }

  /** A batch or transaction Bundle of `entries`, posted to the base. */
  function bundleRow(
    name: string,
    type: 'batch' | 'transaction',
    entries: (victim: Party) => BundleEntry[],
    write?: boolean,
  ): CrossRow {
    return {
      name,
      method: 'POST',
      path: () => 'fhir/R4',
      body: (v) => ({ resourceType: 'Bundle', type, entry: entries(v) }),
      write,
    };
  }

  function crossRows(): CrossRow[] {
    const rows: CrossRow[] = [
      { name: 'read Patient', method: 'GET', path: (v) => `fhir/R4/Patient/${v.patientId}` },
      { name: 'vread Patient', method: 'GET', path: (v) => `fhir/R4/Patient/${v.patientId}/_history/1` },
      { name: 'history of Patient', method: 'GET', path: (v) => `fhir/R4/Patient/${v.patientId}/_history` },
      { name: 'type history of Patient', method: 'GET', path: () => 'fhir/R4/Patient/_history' },
      { name: 'system history', method: 'GET', path: () => 'fhir/R4/_history' },
      { name: 'search Patient _id', method: 'GET', path: (v) => `fhir/R4/Patient?_id=${v.patientId}` },
      {
        name: 'search Patient by name',
        method: 'GET',
        path: (v) => `fhir/R4/Patient?name=${v.names.at(-1)}`,
      },
      { name: 'search Patient without filter', method: 'GET', path: () => 'fhir/R4/Patient?_count=100' },
      {
        name: 'search Patient _has:Observation',
        method: 'GET',
        path: (v) => `fhir/R4/Patient?_has:Observation:subject:_id=${idOf(v, 'Observation')}`,
      },
      {
        name: 'search Patient _filter',
        method: 'GET',
        path: (v) => `fhir/R4/Patient?_filter=${encodeURIComponent(`_id eq ${v.patientId}`)}`,
      },
      {
        name: 'own Patient _revinclude Observation',
        method: 'GET',
        path: (_v, a) => `fhir/R4/Patient?_id=${a.patientId}&_revinclude=Observation:subject`,
      },
      {
        name: 'Observation _include subject (all)',
        method: 'GET',
        path: () => 'fhir/R4/Observation?_include=Observation:subject&_count=200',
      },
      {
        name: 'Observation _include:iterate',
        method: 'GET',
        path: () => 'fhir/R4/Observation?_include:iterate=*&_revinclude:iterate=*&_count=200',
      },
      {
        name: 'Patient $everything',
        method: 'GET',
        path: (v) => `fhir/R4/Patient/${v.patientId}/$everything`,
      },
      { name: 'Patient $summary', method: 'GET', path: (v) => `fhir/R4/Patient/${v.patientId}/$summary` },
      { name: 'compartment wildcard', method: 'GET', path: (v) => `fhir/R4/Patient/${v.patientId}/*` },
      {
        name: 'system search _type',
        method: 'GET',
        path: () => 'fhir/R4/?_type=Observation,Communication,Patient',
      },
      { name: 'GET Patient/$export', method: 'GET', path: () => 'fhir/R4/Patient/$export' },
      { name: 'GET $export', method: 'GET', path: () => 'fhir/R4/$export' },
      {
        name: 'update Patient',
        method: 'PUT',
        path: (v) => `fhir/R4/Patient/${v.patientId}`,
        body: (v) => ({ resourceType: 'Patient', id: v.patientId, name: [{ family: 'Owned' }] }),
        write: true,
      },
      {
        name: 'patch Patient',
        method: 'PATCH',
        path: (v) => `fhir/R4/Patient/${v.patientId}`,
        body: () => [{ op: 'add', path: '/gender', value: 'other' }],
        contentType: 'application/json-patch+json',
        write: true,
      },
      {
        name: 'delete Patient',
        method: 'DELETE',
        path: (v) => `fhir/R4/Patient/${v.patientId}`,
        write: true,
      },
      {
        name: 'conditional update Patient by _id',
        method: 'PUT',
        path: (v) => `fhir/R4/Patient?_id=${v.patientId}`,
        body: (v) => ({ resourceType: 'Patient', id: v.patientId, name: [{ family: 'Owned' }] }),
        write: true,
      },
      {
        name: 'conditional delete Observation by subject',
        method: 'DELETE',
        path: (v) => `fhir/R4/Observation?subject=Patient/${v.patientId}`,
        // Medplum answers 200 when the search (within her own compartment) matches nothing.
        ownScope: true,
      },
      createRow('create Observation about her', (v) => ({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'weight' },
        subject: { reference: `Patient/${v.patientId}` },
      })),
      createRow('create Communication as her', (v, a) => ({
        resourceType: 'Communication',
        status: 'completed',
        sender: { reference: `Patient/${v.patientId}` },
        recipient: [{ reference: `Patient/${a.patientId}` }],
        subject: { reference: `Patient/${v.patientId}` },
        payload: [{ contentString: 'hi' }],
      })),
      createRow('create Communication about her to her', (v) => ({
        resourceType: 'Communication',
        status: 'completed',
        recipient: [{ reference: `Patient/${v.patientId}` }],
        subject: { reference: `Patient/${v.patientId}` },
        payload: [{ contentString: 'hi' }],
      })),
      createRow('create Condition about her', (v) => ({
        resourceType: 'Condition',
        code: { text: 'x' },
        subject: { reference: `Patient/${v.patientId}` },
      })),
      createRow('create QuestionnaireResponse about her', (v) => ({
        resourceType: 'QuestionnaireResponse',
        status: 'in-progress',
        subject: { reference: `Patient/${v.patientId}` },
      })),
      {
        name: 're-point own Observation to her (update)',
        method: 'PUT',
        path: (_v, a) => `fhir/R4/Observation/${idOf(a, 'Observation')}`,
        body: (v, a) => ({
          ...first(a, 'Observation'),
          meta: undefined,
          subject: { reference: `Patient/${v.patientId}` },
        }),
        write: true,
      },
      {
        name: 're-point own Observation to her (patch)',
        method: 'PATCH',
        path: (_v, a) => `fhir/R4/Observation/${idOf(a, 'Observation')}`,
        body: (v) => [{ op: 'replace', path: '/subject', value: { reference: `Patient/${v.patientId}` } }],
        contentType: 'application/json-patch+json',
        write: true,
      },
      {
        name: 'create Subscription on her Observations',
        method: 'POST',
        path: () => 'fhir/R4/Subscription',
        body: (v) => ({
          resourceType: 'Subscription',
          status: 'active',
          reason: 'probe',
          criteria: `Observation?subject=Patient/${v.patientId}`,
          channel: { type: 'rest-hook', endpoint: 'http://127.0.0.1:9/hook' },
        }),
        // Accepted as Medplum does; what it delivers is filtered by her policy (tests/server/access/policy-live).
        ownScope: true,
      },
      graphqlRow(
        'GraphQL Patient by id',
        (v) => `{ Patient(id: "${v.patientId}") { id name { family given } } }`,
      ),
      graphqlRow(
        'GraphQL PatientList by name',
        (v) => `{ PatientList(name: "${v.names.at(-1)}") { id name { family } } }`,
      ),
      graphqlRow(
        'GraphQL PatientList unfiltered',
        () => '{ PatientList(_count: 100) { id name { family given } } }',
      ),
      graphqlRow(
        'GraphQL ObservationList by subject',
        (v) => `{ ObservationList(subject: "Patient/${v.patientId}") { id subject { reference } } }`,
      ),
      graphqlRow(
        'GraphQL aliases',
        (v, a) =>
          `{ mine: Patient(id: "${a.patientId}") { id } theirs: Patient(id: "${v.patientId}") { id name { family } } }`,
      ),
      graphqlRow(
        'GraphQL nested reference resolution',
        () =>
          '{ CommunicationList(_count: 100) { id recipient { resource { ... on Patient { id name { family given } } } } sender { resource { ... on Patient { id name { family } } } } } }',
      ),
      graphqlRow(
        'GraphQL reverse reference from her Patient',
        (v) => `{ Patient(id: "${v.patientId}") { ObservationList(_reference: subject) { id } } }`,
      ),
      graphqlRow(
        'GraphQL create about her',
        (v) =>
          `mutation { ObservationCreate(res: { resourceType: "Observation", status: "final", code: { text: "x" }, subject: { reference: "Patient/${v.patientId}" } }) { id } }`,
        true,
      ),
      graphqlRow(
        'GraphQL update her Patient',
        (v) =>
          `mutation { PatientUpdate(id: "${v.patientId}", res: { resourceType: "Patient", id: "${v.patientId}", gender: "other" }) { id } }`,
        true,
      ),
      graphqlRow(
        'GraphQL delete her Patient',
        (v) => `mutation { PatientDelete(id: "${v.patientId}") { id } }`,
        true,
      ),
      bundleRow('batch GET her Patient and Observations', 'batch', (v) => [
        { request: { method: 'GET', url: `Patient/${v.patientId}` } },
        { request: { method: 'GET', url: `Observation?subject=Patient/${v.patientId}` } },
        { request: { method: 'GET', url: `Patient/${v.patientId}/$everything` } },
      ]),
      bundleRow(
        'transaction writes about her',
        'transaction',
        (v) => [
          {
            request: { method: 'POST', url: 'Observation' },
            resource: {
              resourceType: 'Observation',
              status: 'final',
              code: { text: 'x' },
              subject: { reference: `Patient/${v.patientId}` },
            },
          },
          {
            request: { method: 'PUT', url: `Patient/${v.patientId}` },
            resource: { resourceType: 'Patient', id: v.patientId, gender: 'other' },
          },
        ],
        true,
      ),
      bundleRow(
        'transaction deletes her Patient',
        'transaction',
        (v) => [{ request: { method: 'DELETE', url: `Patient/${v.patientId}` } }],
        true,
      ),
      bundleRow(
        'batch PATCH her Patient',
        'batch',
        (v) => [
          {
            request: { method: 'PATCH', url: `Patient/${v.patientId}` },
            resource: {
              resourceType: 'Binary',
              contentType: 'application/json-patch+json',
              data: Buffer.from(JSON.stringify([{ op: 'add', path: '/gender', value: 'other' }])).toString(
                'base64',
              ),
            },
          },
        ],
        true,
      ),
      createRow('create Bot', () => ({ resourceType: 'Bot', name: 'x' })),
      { name: 'list Bots', method: 'GET', path: () => 'fhir/R4/Bot' },
      createRow('create Agent', () => ({ resourceType: 'Agent', name: 'x', status: 'active' })),
      createRow('create ClientApplication', () => ({ resourceType: 'ClientApplication', name: 'x' })),
      createRow('create AccessPolicy', () => ({
        resourceType: 'AccessPolicy',
        name: 'x',
        resource: [{ resourceType: '*' }],
      })),
      { name: 'list ProjectMemberships', method: 'GET', path: () => 'fhir/R4/ProjectMembership' },
      { name: 'list Logins', method: 'GET', path: () => 'fhir/R4/Login' },
      { name: 'list Users', method: 'GET', path: () => 'fhir/R4/User' },
      { name: 'list AuditEvents', method: 'GET', path: () => 'fhir/R4/AuditEvent' },
      {
        name: 'admin project page',
        method: 'GET',
        path: () => `admin/projects/${clinic.projectId}`,
      },
      {
        name: 'admin invite',
        method: 'POST',
        path: () => `admin/projects/${clinic.projectId}/invite`,
        body: () => ({
          resourceType: 'Patient',
          firstName: 'X',
          lastName: 'Y',
          email: 'x.probe@example.org',
        }),
        contentType: 'application/json',
        write: true,
      },
      {
        name: 'email send',
        method: 'POST',
        path: () => 'email/v1/send',
        body: () => ({ to: 'someone@example.org', subject: 'x', text: 'x' }),
        contentType: 'application/json',
        write: true,
      },
      {
        name: 'FHIRcast subscribe to a topic',
        method: 'POST',
        path: () => 'fhircast/STU3',
        body: (v) =>
          new URLSearchParams({
            'hub.mode': 'subscribe',
            'hub.channel.type': 'websocket',
            'hub.topic': v.patientId,
            'hub.events': 'Patient-open',
          }).toString(),
        contentType: 'application/x-www-form-urlencoded',
        write: true,
      },
      {
        name: 'FHIRcast publish to a topic',
        method: 'POST',
        path: (v) => `fhircast/STU3/${v.patientId}`,
        body: (v) => ({
          timestamp: new Date().toISOString(),
          id: 'probe',
          event: {
            'hub.topic': v.patientId,
            'hub.event': 'Patient-open',
            context: [{ key: 'patient', resource: { resourceType: 'Patient', id: v.patientId } }],
          },
        }),
        contentType: 'application/json',
        write: true,
      },
    ];

    for (const type of COMPARTMENT_TYPES) {
      rows.push(
        {
          name: `search ${type} subject=`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}?subject=Patient/${v.patientId}`,
        },
        {
          name: `search ${type} patient=`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}?patient=${v.patientId}`,
        },
        {
          name: `search ${type} subject:Patient=`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}?subject:Patient=${v.patientId}`,
        },
        {
          name: `search ${type} subject.name=`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}?subject.name=${v.names.at(-1)}`,
        },
        { name: `search ${type} _id=`, method: 'GET', path: (v) => `fhir/R4/${type}?_id=${idOf(v, type)}` },
        {
          name: `compartment Patient/{id}/${type}`,
          method: 'GET',
          path: (v) => `fhir/R4/Patient/${v.patientId}/${type}`,
        },
        {
          name: `${type} via POST _search`,
          method: 'POST',
          path: () => `fhir/R4/${type}/_search`,
          body: (v) => `subject=Patient/${v.patientId}`,
          contentType: 'application/x-www-form-urlencoded',
        },
      );
    }

    // Every type of resource the victim has: each REST verb on one of them.
    for (const type of [
      'Observation',
      'Communication',
      'Condition',
      'Encounter',
      'DocumentReference',
      'CarePlan',
      'QuestionnaireResponse',
      'Appointment',
    ]) {
      rows.push(
        { name: `read her ${type}`, method: 'GET', path: (v) => `fhir/R4/${type}/${idOf(v, type)}` },
        {
          name: `vread her ${type}`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}/${idOf(v, type)}/_history/${first(v, type)?.meta?.versionId ?? '1'}`,
        },
        {
          name: `history of her ${type}`,
          method: 'GET',
          path: (v) => `fhir/R4/${type}/${idOf(v, type)}/_history`,
        },
        {
          name: `update her ${type}`,
          method: 'PUT',
          path: (v) => `fhir/R4/${type}/${idOf(v, type)}`,
          body: (v) => ({ ...first(v, type), meta: undefined }),
          write: true,
        },
        {
          name: `patch her ${type}`,
          method: 'PATCH',
          path: (v) => `fhir/R4/${type}/${idOf(v, type)}`,
          body: () => [{ op: 'add', path: '/language', value: 'en' }],
          contentType: 'application/json-patch+json',
          write: true,
        },
        {
          name: `delete her ${type}`,
          method: 'DELETE',
          path: (v) => `fhir/R4/${type}/${idOf(v, type)}`,
          write: true,
        },
        graphqlRow(`GraphQL read her ${type}`, (v) => `{ ${type}(id: "${idOf(v, type)}") { id } }`),
      );
    }

    // Her attachments: the Binary behind each of her DocumentReferences and Media.
    rows.push(
      {
        name: 'read the Binary of her document',
        method: 'GET',
        path: (v) => {
          const doc = first(v, 'DocumentReference') as
            { content?: { attachment?: { url?: string } }[] } | undefined;
          const url = doc?.content?.[0]?.attachment?.url ?? 'Binary/none';
          return `fhir/R4/${url.slice(url.indexOf('Binary/'))}`;
        },
      },
      { name: 'search Binary', method: 'GET', path: () => 'fhir/R4/Binary' },
    );
    return rows;
  }

  for (const [attackerName, victimName] of [
    ['maria', 'aisha'],
    ['aisha', 'maria'],
  ] as const) {
    for (const row of crossRows()) {
      test(`cross-patient: ${attackerName} → ${victimName}'s data: ${row.name}`, async () => {
        const attacker = attackerName === 'maria' ? maria : aisha;
        const victim = victimName === 'maria' ? maria : aisha;
        const path = row.path(victim, attacker);
        const body = row.body?.(victim, attacker);
        const answer = await call(clinic.server, row.method, path, attacker.tokens, {
          body,
          contentType: row.contentType,
        });
        const request = `${path} ${typeof body === 'string' ? body : JSON.stringify(body ?? '')}`;
        const leaks = leakedMarkers(victim, request, answer.text);
        const refusedWrite =
          !row.write ||
          WRITE_REFUSED.includes(answer.status) ||
          writeRefusedInBundle(answer) ||
          graphqlRefused(answer);
        const verdict: Verdict = {
          held: answer.status < 500 && leaks.length === 0 && refusedWrite,
          detail: `${row.method} ${path}: ${describeAnswer(answer)}${leaks.length ? ` leaked ${leaks.join(', ')}` : ''}`,
        };
        record('cross-patient', `${attackerName} → ${victimName}: ${row.name}`, verdict);
      });
    }
  }

  /** A batch answers 200 with one answer per entry: a write is refused when every entry was. */
  function writeRefusedInBundle(answer: HttpResponse): boolean {
    const body = answer.body;
    if (answer.status !== 200 || body?.resourceType !== 'Bundle') return false;
    const bundle = body as unknown as Bundle;
    if (!bundle.type?.endsWith('-response')) return false;
    return (bundle.entry ?? []).every((entry) => !/^2/.test(entry.response?.status ?? ''));
  }

  /** GraphQL answers 200 with errors: a mutation is refused when every field it asked for is null. */
  function graphqlRefused(answer: HttpResponse): boolean {
    const body = answer.body as { data?: Record<string, unknown> | null; errors?: unknown[] } | undefined;
    return (
      answer.status === 200 &&
      (body?.errors?.length ?? 0) > 0 &&
      Object.values(body?.data ?? {}).every((value) => value === null)
    );
  }

  function record(family: Family, name: string, verdict: Verdict): void {
    results.push({ probe: { family, name, run: async () => verdict }, verdict });
    if (!verdict.held) {
      throw new Error(`probe did not hold: ${name}: ${verdict.detail ?? ''}`);
    }
  }

  test("cross-patient: after every probe, nobody's records changed", async () => {
    const after = (await snapshot(maria)) + (await snapshot(aisha));
    record('cross-patient', 'no record of either patient changed', { held: after === snapshotBefore });
  });

  // ---------------------------------------------------------------------------------------------
  // Token and sign-in.

  async function serverKey(): Promise<CryptoKey> {
    const [key] = (await findActiveJsonWebKeys(clinic.server.db)) as JsonWebKeyResource[];
    return (await importJWK(
      { kty: key.kty, crv: key.crv, x: key.x, y: key.y, d: key.d },
      'ES256',
    )) as CryptoKey;
  }

  function claimsOf(token: string): Record<string, unknown> {
    return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
  }

  /** Bad bearer credentials, each built from a real access token of Maria's. */
  const BAD_BEARERS: { name: string; make: () => Promise<string> }[] = [
    {
      name: 'expired',
      make: async () => {
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({ ...claimsOf(maria.tokens.access_token), iat: now - 7200, exp: now - 3600 })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(await serverKey());
      },
    },
    {
      name: 'not yet valid',
      make: async () => {
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({
          ...claimsOf(maria.tokens.access_token),
          nbf: now + 3600,
          iat: now + 3600,
          exp: now + 7200,
        })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(await serverKey());
      },
    },
    {
      name: 'payload tampered (profile of another patient)',
      make: async () => {
        const [header, , signature] = maria.tokens.access_token.split('.');
        const claims = { ...claimsOf(maria.tokens.access_token), profile: `Patient/${aisha.patientId}` };
        return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      },
    },
    {
      name: 'signature tampered',
      make: async () => {
        const token = maria.tokens.access_token;
        const last = token.at(-2) === 'A' ? 'B' : 'A';
        return `${token.slice(0, -2)}${last}${token.at(-1)}`;
      },
    },
    {
      name: 'alg none',
      make: async () => {
        const payload = maria.tokens.access_token.split('.')[1];
        return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      },
    },
    {
      name: 'HS256 keyed with the public key',
      make: async () => {
        const [key] = (await findActiveJsonWebKeys(clinic.server.db)) as JsonWebKeyResource[];
        const secret = new TextEncoder().encode(
          JSON.stringify({ kty: key.kty, crv: key.crv, x: key.x, y: key.y }),
        );
        return new SignJWT(claimsOf(maria.tokens.access_token))
          .setProtectedHeader({ alg: 'HS256' })
          .sign(secret);
      },
    },
    {
      name: 'signed by a foreign key',
      make: async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        expect((await exportJWK(privateKey)).d).toBeDefined();
        return new SignJWT(claimsOf(maria.tokens.access_token))
          .setProtectedHeader({ alg: 'ES256', kid: 'x' })
          .sign(privateKey);
      },
    },
    {
      name: 'wrong issuer',
      make: async () =>
        new SignJWT({ ...claimsOf(maria.tokens.access_token), iss: 'https://elsewhere.example/' })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(await serverKey()),
    },
    {
      name: 'unknown login',
      make: async () =>
        new SignJWT({ ...claimsOf(maria.tokens.access_token), login_id: crypto.randomUUID() })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(await serverKey()),
    },
    { name: 'a refresh token as bearer', make: async () => maria.tokens.refresh_token as string },
    { name: 'an ID token as bearer', make: async () => maria.tokens.id_token ?? 'x.y.z' },
    { name: 'garbage', make: async () => 'not-a-token' },
  ];

  const BEARER_TARGETS: { name: string; method: string; path: string; body?: unknown }[] = [
    { name: 'FHIR read', method: 'GET', path: `fhir/R4/Patient` },
    { name: 'GraphQL', method: 'POST', path: 'fhir/R4/$graphql', body: { query: '{ PatientList { id } }' } },
    { name: 'auth/me', method: 'GET', path: 'auth/me' },
    { name: 'userinfo', method: 'GET', path: 'oauth2/userinfo' },
    {
      name: 'FHIR create',
      method: 'POST',
      path: 'fhir/R4/Observation',
      body: { resourceType: 'Observation', status: 'final', code: { text: 'x' } },
    },
  ];

  for (const bad of BAD_BEARERS) {
    for (const target of BEARER_TARGETS) {
      test(`token: ${bad.name} token at ${target.name}`, async () => {
        const token = await bad.make();
        const answer = await call(clinic.server, target.method, target.path, undefined, {
          body: target.body,
          headers: { authorization: `Bearer ${token}` },
        });
        record('token and sign-in', `${bad.name} at ${target.name}`, {
          held: UNAUTHENTICATED.includes(answer.status) && leakedMarkers(maria, '', answer.text).length === 0,
          detail: describeAnswer(answer),
        });
      });
    }
  }

  // Sign-in flows, each on a fresh account of its own project (nothing shared between rows).
  async function account(): Promise<{ email: string; project: string }> {
    const project = await createProject(clinic.server.db, 'Probe Clinic');
    const user = await createUser(clinic.server.db);
    await addMembership(clinic.server.db, user, project, 'Patient');
    return { email: user.email as string, project: project.id as string };
  }

  /** auth/login with a password and a PKCE challenge: the code, when the password was right. */
  function passwordLogin(
    email: string,
    password: string,
    challenge: string,
    extra: Record<string, unknown> = {},
  ) {
    return postJson<{ code?: string }>(`${clinic.server.baseUrl}auth/login`, {
      email,
      password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...extra,
    });
  }

  async function pendingCode(email: string, extra: Record<string, unknown> = {}) {
    const { verifier, challenge } = pkce();
    const login = await passwordLogin(email, PASSWORD, challenge, extra);
    return { code: login.body.code as string, verifier };
  }

  const tokenCall = (form: Record<string, string>, headers?: Record<string, string>) =>
    postForm<Tokens & { error?: string }>(`${clinic.server.baseUrl}oauth2/token`, form, headers);
  const refreshCall = (refreshToken: string | undefined, extra: Record<string, string> = {}) =>
    tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken as string, ...extra });
  /** A token call that must be refused: 400 and no access token. */
  const refusedToken = (answer: JsonResponse<Tokens>): Verdict => ({
    held: answer.status === 400 && !answer.body.access_token,
    detail: `${answer.status}`,
  });
  /** A client application in `project`, with the given secret or redirect URI. */
  const clientIn = (project: string, options: Parameters<typeof createClient>[2]) =>
    createClient(clinic.server.db, { id: project, resourceType: 'Project' }, options);
  /** Asks for a reset link for `email` and returns it, as the email carries it. */
  const requestReset = async (email: string) => {
    await postJson(`${clinic.server.baseUrl}auth/resetpassword`, { email });
    return resetLinks(email).at(-1) as { id: string; secret: string };
  };
  const setPassword = (link: { id: string; secret: string }, password: string) =>
    postJson(`${clinic.server.baseUrl}auth/setpassword`, { ...link, password });
  /** The first of two uses of one secret accepted, the second refused. */
  const onceOnly = (first: { status: number }, second: { status: number }): Verdict => ({
    held: first.status === 200 && second.status === 400,
    detail: `${first.status} ${second.status}`,
  });
  const meStatus = async (access: string) =>
    (
      await call(clinic.server, 'GET', 'auth/me', undefined, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).status;

  const FLOWS: { name: string; run: () => Promise<Verdict> }[] = [
    {
      name: 'an authorization code used twice',
      run: async () => {
        const { email } = await account();
        const { code, verifier } = await pendingCode(email);
        const once = await tokenCall({ grant_type: 'authorization_code', code, code_verifier: verifier });
        const twice = await tokenCall({ grant_type: 'authorization_code', code, code_verifier: verifier });
        return {
          held:
            once.status === 200 && twice.status === 400 && (await meStatus(once.body.access_token)) === 401,
          detail: `${once.status} then ${twice.status}`,
        };
      },
    },
    {
      name: 'a wrong PKCE verifier',
      run: async () => {
        const { code } = await pendingCode((await account()).email);
        const answer = await tokenCall({
          grant_type: 'authorization_code',
          code,
          code_verifier: pkce().verifier,
        });
        return refusedToken(answer);
      },
    },
    {
      name: 'a missing PKCE verifier',
      run: async () => {
        const { code } = await pendingCode((await account()).email);
        const answer = await tokenCall({ grant_type: 'authorization_code', code });
        return refusedToken(answer);
      },
    },
    {
      name: 'an unknown authorization code',
      run: async () => {
        const answer = await tokenCall({
          grant_type: 'authorization_code',
          code: 'f'.repeat(64),
          code_verifier: pkce().verifier,
        });
        return refusedToken(answer);
      },
    },
    {
      name: 'a redirect_uri other than the registered one',
      run: async () => {
        const { email, project } = await account();
        const client = await clientIn(project, { redirectUri: 'https://app.example/callback' });
        const authorize = await fetch(
          `${clinic.server.baseUrl}oauth2/authorize?${new URLSearchParams({
            response_type: 'code',
            client_id: client.id as string,
            redirect_uri: 'https://evil.example/callback',
            scope: 'openid',
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          })}`,
          { redirect: 'manual' },
        );
        const location = authorize.headers.get('location') ?? '';
        void email;
        return {
          held: authorize.status >= 400 && !location.includes('evil.example'),
          detail: `${authorize.status} ${location}`,
        };
      },
    },
    {
      name: 'a code redeemed with another redirect_uri',
      run: async () => {
        const { email, project } = await account();
        const client = await clientIn(project, { redirectUri: 'https://app.example/callback' });
        const { code, verifier } = await pendingCode(email, {
          clientId: client.id,
          redirectUri: 'https://app.example/callback',
        });
        const answer = await tokenCall({
          grant_type: 'authorization_code',
          code: code ?? 'none',
          code_verifier: verifier,
          client_id: client.id as string,
          redirect_uri: 'https://evil.example/callback',
        });
        return refusedToken(answer);
      },
    },
    {
      name: 'a refresh token used twice',
      run: async () => {
        const tokens = await signIn(clinic.server.baseUrl, (await account()).email);
        const first = await refreshCall(tokens.refresh_token);
        const replay = await refreshCall(tokens.refresh_token);
        const rotated = await refreshCall(first.body.refresh_token);
        return {
          held: first.status === 200 && replay.status === 400 && rotated.status === 400,
          detail: `${first.status} ${replay.status} ${rotated.status}`,
        };
      },
    },
    {
      name: 'tokens after logout',
      run: async () => {
        const tokens = await signIn(clinic.server.baseUrl, (await account()).email);
        await call(clinic.server, 'POST', 'oauth2/logout', tokens);
        const refresh = await refreshCall(tokens.refresh_token);
        return {
          held: (await meStatus(tokens.access_token)) === 401 && refresh.status === 400,
          detail: `${refresh.status}`,
        };
      },
    },
    {
      name: 'a revoked login',
      run: async () => {
        const tokens = await signIn(clinic.server.baseUrl, (await account()).email);
        const loginId = claimsOf(tokens.access_token).login_id as string;
        const repo = new Repository(clinic.server.db, systemContext());
        const login = await repo.readResource<Resource & { revoked?: boolean }>('Login', loginId);
        await repo.updateResource({ ...login, revoked: true });
        const refresh = await refreshCall(tokens.refresh_token);
        return {
          held: (await meStatus(tokens.access_token)) === 401 && refresh.status === 400,
          detail: `${refresh.status}`,
        };
      },
    },
    {
      name: 'client_credentials with a wrong secret',
      run: async () => {
        const { project } = await account();
        const client = await clientIn(project, { secret: 'right-secret-1' });
        const answer = await tokenCall({
          grant_type: 'client_credentials',
          client_id: client.id as string,
          client_secret: 'wrong',
        });
        return { held: answer.status === 401 && !answer.body.access_token, detail: `${answer.status}` };
      },
    },
    {
      name: 'client_credentials without a secret',
      run: async () => {
        const { project } = await account();
        const client = await clientIn(project, { secret: 'right-secret-2' });
        const answer = await tokenCall({ grant_type: 'client_credentials', client_id: client.id as string });
        return {
          held: answer.status >= 400 && answer.status < 500 && !answer.body.access_token,
          detail: `${answer.status}`,
        };
      },
    },
    {
      name: 'client_credentials for an unknown client',
      run: async () => {
        const answer = await tokenCall({
          grant_type: 'client_credentials',
          client_id: crypto.randomUUID(),
          client_secret: 'x',
        });
        return { held: answer.status === 401 && !answer.body.access_token, detail: `${answer.status}` };
      },
    },
    {
      name: 'a refresh asking for a wider scope',
      run: async () => {
        const tokens = await signIn(clinic.server.baseUrl, (await account()).email, undefined, {
          scope: 'openid',
        });
        const wider = await refreshCall(tokens.refresh_token, { scope: 'openid offline system/*.*' });
        const scope = wider.body.scope ?? '';
        return {
          held: wider.status >= 400 || !scope.includes('system/'),
          detail: `${wider.status} ${scope}`,
        };
      },
    },
    {
      name: 'tokens and codes after a password reset',
      run: async () => {
        const { email } = await account();
        const tokens = await signIn(clinic.server.baseUrl, email);
        const pending = await pendingCode(email);
        const link = await requestReset(email);
        const set = await setPassword(link, NEW_PASSWORD);
        const refresh = await refreshCall(tokens.refresh_token);
        const code = await tokenCall({
          grant_type: 'authorization_code',
          code: pending.code,
          code_verifier: pending.verifier,
        });
        return {
          held:
            set.status === 200 &&
            (await meStatus(tokens.access_token)) === 401 &&
            refresh.status === 400 &&
            code.status === 400,
          detail: `set ${set.status} refresh ${refresh.status} code ${code.status}`,
        };
      },
    },
    {
      name: 'a reset link used twice',
      run: async () => {
        const { email } = await account();
        const link = await requestReset(email);
        return onceOnly(await setPassword(link, NEW_PASSWORD), await setPassword(link, 'Other-Cedar-Path-3'));
      },
    },
    {
      name: 'an older reset link after a newer one was used',
      run: async () => {
        const { email } = await account();
        const older = await requestReset(email);
        const newer = await requestReset(email);
        return onceOnly(
          await setPassword(newer, NEW_PASSWORD),
          await setPassword(older, 'Other-Cedar-Path-3'),
        );
      },
    },
    {
      name: 'a reset link with a wrong secret',
      run: async () => {
        const { email } = await account();
        const link = await requestReset(email);
        const answer = await setPassword(
          { id: link.id, secret: '0'.repeat(link.secret.length) },
          NEW_PASSWORD,
        );
        return { held: answer.status === 400, detail: `${answer.status}` };
      },
    },
    {
      name: 'a reset request does not tell whether the email exists',
      run: async () => {
        const { email } = await account();
        const known = await postJson(`${clinic.server.baseUrl}auth/resetpassword`, { email });
        const unknown = await postJson(`${clinic.server.baseUrl}auth/resetpassword`, {
          email: 'nobody.probe@example.org',
        });
        return {
          held:
            known.status === unknown.status && JSON.stringify(known.body) === JSON.stringify(unknown.body),
          detail: `${known.status} ${unknown.status}`,
        };
      },
    },
    {
      name: 'a wrong password',
      run: async () => {
        const { email } = await account();
        const answer = await passwordLogin(email, 'not-the-password-9', pkce().challenge);
        return { held: answer.status === 400 && !answer.body.code, detail: `${answer.status}` };
      },
    },
    {
      name: 'the old password after a change',
      run: async () => {
        const { email } = await account();
        const tokens = await signIn(clinic.server.baseUrl, email);
        const changed = await call(clinic.server, 'POST', 'auth/changepassword', tokens, {
          body: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
          contentType: 'application/json',
        });
        const old = await passwordLogin(email, PASSWORD, pkce().challenge);
        return {
          held: changed.status === 200 && !old.body.code && (await meStatus(tokens.access_token)) === 401,
          detail: `${changed.status} ${old.status}`,
        };
      },
    },
  ];

  function resetLinks(email: string): { id: string; secret: string }[] {
    return outboxEmails(clinic.server)
      .filter((text) => text.toLowerCase().includes(`to: ${email.toLowerCase()}`))
      .map(setPasswordLink);
  }

  for (const flow of FLOWS) {
    test(`token: ${flow.name}`, async () => {
      record('token and sign-in', flow.name, await flow.run());
    });
  }
});
