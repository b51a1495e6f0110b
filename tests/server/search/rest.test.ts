// Search over real HTTP against the real server (GET {type}?…, POST {type}/_search,
// 400s naming the parameter, Prefer: handling=lenient, paging links of SPEC §7, _summary,
// _elements, _include), on each database engine. The engine's semantics are tested in its own suite.
import type { Bundle, Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { formatSearchQuery, parseSearchRequest } from '../../../src/fhir/search';
import { SUBSETTED_TAG } from '../../../src/server/search/summary';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const FHIR_JSON = 'application/fhir+json';
const LOINC = 'http://loinc.org';

describe.each(databases())('search over HTTP on %s (issue #4, SPEC §7)', (_engine, kind) => {
  let server: TestServer;
  let patient: Patient;
  let other: Patient;
  const heartRates: Observation[] = [];

  async function send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown }> {
    const response = await fetch(path.startsWith('http') ? path : server.fhirUrl + path, {
      method,
      headers,
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function create<T extends { resourceType: string }>(resource: T): Promise<T> {
    const sent = await send('POST', resource.resourceType, JSON.stringify(resource), {
      'content-type': FHIR_JSON,
    });
    expect(sent.status).toBe(201);
    return sent.body as T;
  }

  async function search(path: string, headers: Record<string, string> = {}): Promise<Bundle> {
    const sent = await send('GET', path, undefined, headers);
    expect(sent.status).toBe(200);
    return sent.body as Bundle;
  }

  function matchIds(bundle: Bundle): string[] {
    return (bundle.entry ?? [])
      .filter((e) => e.search?.mode === 'match')
      .map((e) => e.resource?.id as string);
  }

  async function rejected(path: string): Promise<{ text?: string; expression?: string[] }> {
    const sent = await send('GET', path);
    expect(sent.status).toBe(400);
    const outcome = sent.body as OperationOutcome;
    expect(outcome.resourceType).toBe('OperationOutcome');
    return { text: outcome.issue[0].details?.text, expression: outcome.issue[0].expression };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    patient = await create<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Searchwell', given: ['Ada'] }],
      gender: 'female',
      birthDate: '1990-04-01',
      text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Ada</div>' },
    });
    other = await create<Patient>({ resourceType: 'Patient', name: [{ family: 'Otherly' }] });
    for (let day = 1; day <= 7; day++) {
      heartRates.push(
        await create<Observation>({
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: LOINC, code: '8867-4' }] },
          subject: { reference: `Patient/${patient.id}` },
          effectiveDateTime: `2026-01-0${day}T10:00:00Z`,
          valueQuantity: { value: 60 + day, unit: '/min' },
          note: [{ text: `day ${day}` }],
        }),
      );
    }
    await create<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4' }] },
      subject: { reference: `Patient/${other.id}` },
      effectiveDateTime: '2026-01-03T10:00:00Z',
    });
  });

  afterAll(async () => {
    await server.close();
  });

  test('GET {type}?… answers a searchset of the matches with fullUrl and search.mode match', async () => {
    const bundle = await search(
      `Observation?subject=Patient/${patient.id}&code=${LOINC}|8867-4&_sort=-date&_total=accurate`,
    );
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.type).toBe('searchset');
    expect(bundle.total).toBe(7);
    expect(matchIds(bundle)).toEqual([...heartRates].reverse().map((o) => o.id));
    expect(bundle.entry?.[0].fullUrl).toBe(`${server.fhirUrl}Observation/${heartRates[6].id}`);
  });

  test('paging: self, first, previous and next links (SPEC §7) walk every match exactly once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `Observation?_count=3&_sort=date&subject=Patient/${patient.id}`;
    let pages = 0;
    while (url) {
      const bundle = await search(url);
      const relations = bundle.link?.map((l) => l.relation);
      expect(relations?.slice(0, 2)).toEqual(['self', 'first']);
      expect(relations?.includes('previous')).toBe(pages > 0);
      const self = bundle.link?.find((l) => l.relation === 'self')?.url as string;
      // The links are built with formatSearchQuery: parsing and formatting them again changes nothing.
      expect(self).toBe(`${server.fhirUrl}Observation${formatSearchQuery(parseSearchRequest(self))}`);
      seen.push(...matchIds(bundle));
      url = bundle.link?.find((l) => l.relation === 'next')?.url;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(heartRates.map((o) => o.id));
  });

  test('POST {type}/_search takes the parameters as a form, together with the query string', async () => {
    const sent = await send(
      'POST',
      `Observation/_search?_sort=date`,
      `subject=Patient%2F${patient.id}&_count=2`,
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(sent.status).toBe(200);
    const bundle = sent.body as Bundle;
    expect(matchIds(bundle)).toEqual([heartRates[0].id, heartRates[1].id]);
    expect(bundle.link?.find((l) => l.relation === 'next')?.url).toContain('_offset=2');
    const json = await send('POST', 'Observation/_search', '{}', { 'content-type': FHIR_JSON });
    expect(json.status).toBe(415);
  });

  test.each([
    ['Observation?nickname=x', 'nickname', "Unknown search parameter 'nickname' for Observation"],
    ['Observation?date=2026-02-30T99:00', 'date', "Invalid value '2026-02-30T99:00'"],
    ['Observation?value-quantity=gtlots', 'value-quantity', "Invalid value 'lots'"],
    ['Observation?code:fuzzy=x', 'code:fuzzy', "Unknown modifier ':fuzzy'"],
    ['Observation?date:contains=2026', 'date:contains', "':contains' is not allowed on date"],
    ['Observation?_count=ten', '_count', 'whole number'],
    ['Observation?_sort=-nickname', '_sort', "Cannot sort by 'nickname'"],
    ['Observation?_include=Observation:status', '_include', 'not a reference parameter'],
    ['Patient?gender:missing=perhaps', 'gender:missing', 'true or false'],
  ])('%s → 400 OperationOutcome naming %s', async (path, expression, text) => {
    const outcome = await rejected(path);
    expect(outcome.expression).toEqual([expression]);
    expect(outcome.text).toContain(text);
  });

  test('an unknown resource type is a 404', async () => {
    expect((await send('GET', 'Nothing?name=x')).status).toBe(404);
  });

  test('Prefer: handling=lenient ignores unknown parameters, still refuses malformed values', async () => {
    const bundle = await search(`Observation?nickname=x&subject=Patient/${other.id}`, {
      prefer: 'handling=lenient',
    });
    expect(matchIds(bundle)).toHaveLength(1);
    expect(bundle.link?.[0].url).not.toContain('nickname');
    const strict = await send('GET', `Observation?nickname=x`, undefined, { prefer: 'handling=strict' });
    expect(strict.status).toBe(400);
    const malformed = await send('GET', 'Observation?date=soon&nickname=x', undefined, {
      prefer: 'handling=lenient',
    });
    expect(malformed.status).toBe(400);
  });

  test('_summary=count: the total and no entries', async () => {
    const bundle = await search(`Observation?subject=Patient/${patient.id}&_summary=count`);
    expect(bundle.total).toBe(7);
    expect(bundle.entry).toBeUndefined();
  });

  test('_summary=true and text keep the summary view, tagged SUBSETTED; data drops text', async () => {
    const summary = await search(`Observation?subject=Patient/${patient.id}&_summary=true&_count=1`);
    const observation = summary.entry?.[0].resource as Observation;
    expect(observation.note).toBeUndefined();
    expect(observation.valueQuantity).toBeDefined();
    expect(observation.meta?.tag).toContainEqual(SUBSETTED_TAG);
    const text = await search(`Patient?_id=${patient.id}&_summary=text`);
    expect(Object.keys(text.entry?.[0].resource ?? {}).sort()).toEqual([
      'id',
      'meta',
      'resourceType',
      'text',
    ]);
    const data = await search(`Patient?_id=${patient.id}&_summary=data`);
    expect((data.entry?.[0].resource as Patient).text).toBeUndefined();
    expect((data.entry?.[0].resource as Patient).birthDate).toBe('1990-04-01');
  });

  test('_elements and _fields keep the listed elements plus id, meta and the mandatory ones', async () => {
    for (const name of ['_elements', '_fields']) {
      const bundle = await search(`Observation?subject=Patient/${patient.id}&${name}=valueQuantity&_count=1`);
      expect(Object.keys(bundle.entry?.[0].resource ?? {}).sort()).toEqual(
        ['code', 'id', 'meta', 'resourceType', 'status', 'valueQuantity'].sort(),
      );
    }
  });

  test('_include adds the referenced resources once, as search.mode include', async () => {
    const bundle = await search(
      `Observation?subject=Patient/${patient.id}&_count=3&_include=Observation:subject`,
    );
    const includes = bundle.entry?.filter((e) => e.search?.mode === 'include') ?? [];
    expect(includes.map((e) => e.fullUrl)).toEqual([`${server.fhirUrl}Patient/${patient.id}`]);
    expect(matchIds(bundle)).toHaveLength(3);
  });

  test('GET /fhir/R4?_type=… searches several types with the common parameters, paged across them', async () => {
    const ids = [patient.id, heartRates[0].id, heartRates[1].id].join(',');
    const all = await search(`?_type=Patient,Observation&_id=${ids}&_sort=_id&_total=accurate`);
    expect(all.total).toBe(3);
    const expectedOrder = [patient.id, heartRates[0].id, heartRates[1].id].sort();
    expect(matchIds(all)).toEqual(expectedOrder);
    const page2 = await search(`?_type=Patient,Observation&_id=${ids}&_sort=_id&_count=2&_offset=2`);
    expect(matchIds(page2)).toEqual(expectedOrder.slice(2));
    const first = await search(`?_type=Patient,Observation&_id=${ids}&_sort=_id&_count=2`);
    const next = first.link?.find((l) => l.relation === 'next')?.url as string;
    expect(next).toContain(`${server.fhirUrl}?`);
    expect(next).toContain('_type=Patient,Observation');
    expect(matchIds(await search(next))).toEqual(expectedOrder.slice(2));
  });

  test.each([
    ['?name=x', '_type', 'needs _type'],
    ['?_type=Patient,Nothing', undefined, "Unknown resource type 'Nothing'"],
    ['?_type=Patient,Observation&name=x', 'name', "Unknown search parameter 'name' for Observation"],
    ['?_type=Patient,Observation&_sort=name', '_sort', ''],
    ['?_type=Patient&_include=Patient:organization', '_include', 'does not take _include'],
  ])('system search %s is refused', async (query, expression, text) => {
    const sent = await send('GET', query);
    expect([400, 404]).toContain(sent.status);
    const outcome = sent.body as OperationOutcome;
    if (expression) expect(outcome.issue[0].expression).toEqual([expression]);
    expect(outcome.issue[0].details?.text).toContain(text);
  });

  test('a batch GET entry searches exactly like GET over HTTP', async () => {
    const batch: Bundle = {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: `Observation?subject=Patient/${patient.id}&_count=2&_sort=date` } },
        { request: { method: 'GET', url: 'Observation?nickname=1' } },
      ],
    };
    const sent = await send('POST', '', JSON.stringify(batch), { 'content-type': FHIR_JSON });
    const response = sent.body as Bundle;
    expect(response.entry?.map((e) => e.response?.status)).toEqual(['200', '400']);
    expect(matchIds(response.entry?.[0].resource as Bundle)).toEqual([heartRates[0].id, heartRates[1].id]);
  });
});
