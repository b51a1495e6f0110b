// ResourceSearch(resourceType, search), the generic field behind the table's ResourceList operation
// (SPEC §2 generic resource search table, §7 "ResourceList queries for generic tables"), against the
// real server with the demo clinic: the same matches, total and projection as the REST search of the
// same query string (modifiers, ranges, _filter, _total modes, _fields, _summary=count), the caller's
// access rules, attachment URLs signed as REST signs them, and bad input refused with an
// OperationOutcome naming what is wrong. PGlite always, PostgreSQL too with TEST_DATABASE_URL.
import type { Binary, Bundle, Communication, Resource } from '@medplum/fhirtypes';
import { ResourceListDocument } from '../../../src/graphql';
import type { ResourceListQuery } from '../../../src/graphql';
import { print } from 'graphql';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { issueTexts, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic, GraphQLResponseBody } from '../../graphql/support/graphql-fixtures';

type Page = ResourceListQuery['ResourceSearch'];

const QUERY = print(ResourceListDocument);

describe.each(databases())('ResourceSearch on %s', (_engine, kind) => {
  let clinic: DemoClinic;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  /** The typed operation the table sends, as it sends it. */
  async function resourceList(tokens: Tokens, resourceType: string, search?: string) {
    const answer = await postGraphQL<ResourceListQuery>(clinic.server, tokens, QUERY, {
      resourceType,
      search,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function page(tokens: Tokens, resourceType: string, search?: string): Promise<Page> {
    const body = await resourceList(tokens, resourceType, search);
    expect(body.errors).toBeUndefined();
    return body.data!.ResourceSearch;
  }

  async function rest<T>(tokens: Tokens, method: string, path: string, body?: BodyInit, type?: string) {
    const response = await fetch(`${clinic.server.fhirUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, ...(type ? { 'content-type': type } : {}) },
      body,
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as T;
  }

  /** The REST search of the same query string: what ResourceSearch must agree with. */
  async function restSearch(tokens: Tokens, resourceType: string, search: string) {
    const bundle = await rest<Bundle>(tokens, 'GET', `${resourceType}?${search}`);
    const matches = (bundle.entry ?? []).filter((entry) => entry.search?.mode === 'match');
    return { total: bundle.total, resources: matches.map((entry) => entry.resource as Resource) };
  }

  function outcomeOf(body: GraphQLResponseBody<unknown>): string {
    const outcome = body.errors?.[0]?.extensions?.outcome as GraphQLResponseBody<unknown> | undefined;
    return outcome ? issueTexts(outcome).join(' | ') : '';
  }

  it('a page of one type with its total, in the order asked, as JSON resources', async () => {
    const first = await page(clinic.chen, 'Observation', '_count=5&_sort=-_lastUpdated&_total=accurate');
    expect(first.resources).toHaveLength(5);
    expect(first.total).toBeGreaterThan(5);
    expect(first).toMatchObject({ offset: 0, pageSize: 5 });
    const rows = first.resources as Resource[];
    expect(rows.every((row) => row.resourceType === 'Observation' && typeof row.id === 'string')).toBe(true);
    const updated = rows.map((row) => row.meta?.lastUpdated as string);
    expect(updated).toEqual([...updated].sort().reverse());

    const second = await page(clinic.chen, 'Observation', '_count=5&_offset=5&_sort=-_lastUpdated');
    expect(second.offset).toBe(5);
    // No total asked: none counted.
    expect(second.total).toBeNull();
    const secondIds = (second.resources as Resource[]).map((row) => row.id);
    expect(secondIds).not.toContain(rows[0].id);
  });

  it.each([
    ['a modifier', 'status:not=cancelled&_sort=_id'],
    ['a range on one parameter', '_lastUpdated=ge2000-01-01&_lastUpdated=lt2100-01-01&_sort=_id'],
    ['_filter', '_filter=status eq final&_sort=_id'],
    ['missing', 'value-quantity:missing=false&_sort=_id'],
    ['an estimated total', '_total=estimate&_sort=_id'],
    ['an exact total', '_total=accurate&_sort=_id&_count=3'],
  ])('%s answers what the REST search of the same query string answers', async (_name, search) => {
    const graphql = await page(clinic.chen, 'Observation', search);
    const expected = await restSearch(clinic.chen, 'Observation', search);
    // Each query finds something, so agreement is not two empty pages.
    expect(expected.resources.length).toBeGreaterThan(0);
    expect(graphql.resources).toEqual(expected.resources);
    expect(graphql.total ?? undefined).toBe(expected.total);
  });

  it('_fields projects each match as REST does (SUBSETTED, id, meta and mandatory elements kept)', async () => {
    const search = '_fields=status&_count=3&_sort=_id';
    const projected = await page(clinic.chen, 'Observation', search);
    const rows = projected.resources as Resource[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => !('valueQuantity' in row) && !('subject' in row))).toBe(true);
    expect(rows.every((row) => row.meta?.tag?.some((tag) => tag.code === 'SUBSETTED'))).toBe(true);
    expect(projected.resources).toEqual((await restSearch(clinic.chen, 'Observation', search)).resources);
  });

  it('_summary=count answers the total alone; a leading ? is taken as in a copied URL', async () => {
    const counted = await page(clinic.chen, 'Observation', '?_summary=count');
    expect(counted.resources).toEqual([]);
    expect(counted.total).toBe((await restSearch(clinic.chen, 'Observation', '_summary=count')).total);
  });

  it("a patient's search holds only what she may read: her own Patient, not Aisha's Observations", async () => {
    const patients = await page(clinic.maria, 'Patient', '_total=accurate');
    expect((patients.resources as Resource[]).map((row) => `Patient/${row.id}`)).toEqual([clinic.mariaRef]);
    expect(patients.total).toBe(1);
    const aishas = await page(clinic.maria, 'Observation', `subject=${clinic.aishaRef}&_total=accurate`);
    expect(aishas).toMatchObject({ resources: [], total: 0 });
  });

  it('attachment URLs of Binaries the caller may read are signed, as the REST search signs them', async () => {
    const binary = await rest<Binary>(clinic.maria, 'POST', 'Binary', new Uint8Array([1, 2, 3]), 'image/png');
    const communication = await rest<Communication>(
      clinic.maria,
      'POST',
      'Communication',
      JSON.stringify({
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: clinic.mariaRef },
        sender: { reference: clinic.mariaRef },
        payload: [{ contentAttachment: { contentType: 'image/png', url: `Binary/${binary.id}` } }],
      }),
      'application/fhir+json',
    );
    const found = await page(clinic.maria, 'Communication', `_id=${communication.id}`);
    const url = (found.resources as Communication[])[0].payload?.[0].contentAttachment?.url;
    expect(url).toMatch(new RegExp(`/storage/${binary.id}\\?`));
    const restUrl = (await restSearch(clinic.maria, 'Communication', `_id=${communication.id}`))
      .resources as Communication[];
    expect(new URL(url as string).pathname).toBe(
      new URL(restUrl[0].payload?.[0].contentAttachment?.url as string).pathname,
    );
  });

  it.each([
    ['an unknown resource type', 'Nope', '', /Unknown resource type 'Nope'/],
    ['an unknown search parameter', 'Observation', 'bogus=1', /bogus/],
    ['a malformed _count', 'Observation', '_count=abc', /_count/],
    ['an unknown _fields element', 'Observation', '_fields=nope', /Unknown element 'nope'/],
    ['a search longer than 8192 characters', 'Observation', `_id=${'x'.repeat(8200)}`, /at most 8192/],
  ])('%s is refused with an OperationOutcome naming it', async (_name, resourceType, search, text) => {
    const body = await resourceList(clinic.chen, resourceType, search);
    expect(body.data).toBeNull();
    expect(outcomeOf(body)).toMatch(text);
  });

  it('a request without resourceType is refused before it runs (400 OperationOutcome)', async () => {
    const missing = await postGraphQL(clinic.server, clinic.chen, QUERY, { search: '_count=1' });
    expect(missing.status).toBe(400);
    expect(issueTexts(missing.body).join(' ')).toMatch(/resourceType/);
  });
});
