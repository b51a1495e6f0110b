// GET {type}/{id}/$graph?graph={name} (SPEC §7) driven by a stored GraphDefinition: links by path
// (references read in batches) and by search params (what points back), nested, each resource once,
// access-controlled like REST.
import type { Bundle, GraphDefinition, Resource } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import type { Tokens } from '../auth/support/auth-fixtures';
import { idOf, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic } from '../../graphql/support/graphql-fixtures';

const LAB_DETAIL: GraphDefinition = {
  resourceType: 'GraphDefinition',
  name: 'lab-detail',
  status: 'active',
  start: 'DiagnosticReport',
  link: [
    {
      path: 'DiagnosticReport.result',
      target: [{ type: 'Observation', link: [{ path: 'specimen', target: [{ type: 'Specimen' }] }] }],
    },
    { path: 'performer', target: [{ type: 'Organization' }] },
  ],
};

const PATIENT_LABS: GraphDefinition = {
  resourceType: 'GraphDefinition',
  name: 'patient-labs',
  status: 'active',
  start: 'Patient',
  link: [
    {
      target: [
        {
          type: 'DiagnosticReport',
          params: 'subject={ref}',
          link: [{ path: 'result', target: [{ type: 'Observation' }] }],
        },
      ],
    },
  ],
};

describe.each(databases())('SPEC §7 $graph on %s', (_engine, kind) => {
  let clinic: DemoClinic;
  let reportId: string;
  let reportResults: number;

  async function graph(
    tokens: Tokens,
    path: string,
  ): Promise<{ status: number; body: Bundle & { issue?: { details?: { text?: string } }[] } }> {
    const response = await fetch(`${clinic.server.fhirUrl}${path}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    return { status: response.status, body: (await response.json()) as Bundle };
  }

  const keys = (bundle: Bundle): string[] =>
    (bundle.entry ?? []).map(
      (e) => `${(e.resource as Resource).resourceType}/${(e.resource as Resource).id}`,
    );

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
    for (const definition of [LAB_DETAIL, PATIENT_LABS]) {
      const created = await fetch(`${clinic.server.fhirUrl}GraphDefinition`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${clinic.admin.access_token}`,
          'content-type': 'application/fhir+json',
        },
        body: JSON.stringify(definition),
      });
      expect(created.status).toBe(201);
    }
    const { body } = await postGraphQL<{ DiagnosticReportList: { id: string; result: unknown[] }[] }>(
      clinic.server,
      clinic.chen,
      `query ($s: String) { DiagnosticReportList(subject: $s, _count: 50) { id result { reference } } }`,
      { s: clinic.mariaRef },
    );
    const report = (body.data?.DiagnosticReportList ?? []).sort(
      (a, b) => b.result.length - a.result.length,
    )[0];
    reportId = report.id;
    reportResults = report.result.length;
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('follows path links, nested: the report, its results, their specimen and the performer, each once', async () => {
    const { status, body } = await graph(clinic.chen, `DiagnosticReport/${reportId}/$graph?graph=lab-detail`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const found = keys(body);
    expect(found[0]).toBe(`DiagnosticReport/${reportId}`);
    expect(new Set(found).size).toBe(found.length);
    const count = (type: string) => found.filter((k) => k.startsWith(`${type}/`)).length;
    expect(count('Observation')).toBe(reportResults);
    expect(count('Specimen')).toBeGreaterThanOrEqual(1);
    expect(count('Organization')).toBe(1);
  });

  it("follows search links ('subject={ref}') and their nested links, never beyond the caller's reach", async () => {
    const { body } = await graph(clinic.chen, `Patient/${idOf(clinic.mariaRef)}/$graph?graph=patient-labs`);
    const reports = (body.entry ?? [])
      .map((e) => e.resource as Resource)
      .filter((r) => r.resourceType === 'DiagnosticReport');
    expect(reports).toHaveLength(7);
    const observations = (body.entry ?? []).filter((e) => e.resource?.resourceType === 'Observation');
    expect(observations.length).toBeGreaterThan(7);
    expect(JSON.stringify(body)).not.toContain(clinic.aishaRef);
  });

  it("a patient cannot start from another patient's resource (404, as REST); a graph they may not read is not found", async () => {
    const theirs = await graph(clinic.maria, `Patient/${idOf(clinic.aishaRef)}/$graph?graph=patient-labs`);
    expect(theirs.status).toBe(404);
    // The demo patient policy does not grant GraphDefinition: to Maria the graph does not exist.
    const own = await graph(clinic.maria, `Patient/${idOf(clinic.mariaRef)}/$graph?graph=patient-labs`);
    expect(own.status).toBe(404);
    expect(own.body.issue?.[0].details?.text).toBe("GraphDefinition 'patient-labs' not found");
  });

  it('bad requests: no graph, an unknown graph, a graph for another start type, an unknown resource type', async () => {
    const noGraph = await graph(clinic.chen, `DiagnosticReport/${reportId}/$graph`);
    expect(noGraph.status).toBe(400);
    const unknown = await graph(clinic.chen, `DiagnosticReport/${reportId}/$graph?graph=nope`);
    expect(unknown.status).toBe(404);
    const wrongStart = await graph(clinic.chen, `DiagnosticReport/${reportId}/$graph?graph=patient-labs`);
    expect(wrongStart.status).toBe(400);
    expect(wrongStart.body.issue?.[0].details?.text).toMatch(/starts at Patient, not DiagnosticReport/);
    const badType = await graph(clinic.chen, `Nonsense/x/$graph?graph=lab-detail`);
    expect(badType.status).toBe(404);
  });
});
