// StructureDefinition/$expand-profile over real HTTP (SPEC §7
// requestProfileSchema; Medplum's operation): the profile and the profiles its element types name,
// recursively and each once; the project's stored profiles for its members only.
import type { Bundle, StructureDefinition } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from './support/clinic';
import type { Clinic } from './support/clinic';
import { outcomeExpression, outcomeText } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';

const BASE = 'http://hl7.org/fhir/StructureDefinition/';
const BLOOM = 'https://bloom.example/fhir/StructureDefinition/';

function structureDefinition(
  id: string,
  type: string,
  kind: StructureDefinition['kind'],
  elements: StructureDefinition['snapshot'],
): StructureDefinition {
  return {
    resourceType: 'StructureDefinition',
    url: `${BLOOM}${id}`,
    name: id.replace(/-/g, ''),
    status: 'active',
    kind,
    abstract: false,
    type,
    baseDefinition: `${BASE}${type}`,
    derivation: 'constraint',
    snapshot: elements,
  };
}

describe.each(databases())('StructureDefinition $expand-profile on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const expandProfile = (url: string | undefined, tokens: Tokens = clinic.chen) =>
    call<Bundle<StructureDefinition>>(
      clinic.server,
      'GET',
      `fhir/R4/StructureDefinition/$expand-profile${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`,
      tokens,
    );

  const urls = (bundle: Bundle<StructureDefinition>) => (bundle.entry ?? []).map((e) => e.resource?.url);

  test('SPEC §7 the blood pressure profile comes with the SimpleQuantity profile its values use, as a searchset', async () => {
    const response = await expandProfile(`${BASE}bp`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(urls(response.body)).toEqual([`${BASE}bp`, `${BASE}SimpleQuantity`]);
    expect(response.body.entry?.[0].fullUrl).toBe(`${clinic.server.fhirUrl}StructureDefinition/bp`);
    expect(response.body.entry?.[0].resource?.snapshot?.element?.length).toBeGreaterThan(10);
  });

  test('a base resource definition with no typed profiles is alone in its Bundle', async () => {
    const response = await expandProfile(`${BASE}Patient`);
    expect(urls(response.body)).toEqual([`${BASE}Patient`]);
  });

  test("a project's stored profile brings its stored extension and the base profiles it names, each once even in a cycle", async () => {
    const extension = structureDefinition('due-date', 'Extension', 'complex-type', {
      element: [
        { id: 'Extension', path: 'Extension' },
        // Refers back to the profile: a cycle that must not loop.
        {
          id: 'Extension.extension',
          path: 'Extension.extension',
          type: [{ code: 'Extension', profile: [`${BLOOM}pregnant-patient`] }],
        },
        { id: 'Extension.value[x]', path: 'Extension.value[x]', type: [{ code: 'date' }] },
      ],
    });
    const profile = structureDefinition('pregnant-patient', 'Patient', 'resource', {
      element: [
        { id: 'Patient', path: 'Patient' },
        {
          id: 'Patient.extension',
          path: 'Patient.extension',
          type: [{ code: 'Extension', profile: [`${BLOOM}due-date`] }],
        },
        {
          id: 'Patient.contact.extension',
          path: 'Patient.contact.extension',
          type: [{ code: 'Extension', profile: [`${BLOOM}due-date`, `${BASE}bp`] }],
        },
      ],
    });
    for (const sd of [extension, profile]) {
      const created = await call(clinic.server, 'POST', 'fhir/R4/StructureDefinition', clinic.admin, {
        body: sd,
      });
      expect(created.status).toBe(201);
    }
    const response = await expandProfile(`${BLOOM}pregnant-patient`);
    expect(response.status).toBe(200);
    expect(urls(response.body)).toEqual([
      `${BLOOM}pregnant-patient`,
      `${BLOOM}due-date`,
      `${BASE}bp`,
      `${BASE}SimpleQuantity`,
    ]);
    // Another project does not see the clinic's profiles.
    const other = await expandProfile(`${BLOOM}pregnant-patient`, clinic.otherAdmin);
    expect(other.status).toBe(400);
    expect(outcomeText(other.body)).toBe(
      `StructureDefinition profile with URL ${BLOOM}pregnant-patient not found`,
    );
  });

  test('a patient can expand the published profiles; anonymous is 401', async () => {
    expect(urls((await expandProfile(`${BASE}bp`, clinic.maria)).body)).toEqual([
      `${BASE}bp`,
      `${BASE}SimpleQuantity`,
    ]);
    const anonymous = await call(
      clinic.server,
      'GET',
      `fhir/R4/StructureDefinition/$expand-profile?url=${BASE}bp`,
      undefined,
    );
    expect(anonymous.status).toBe(401);
  });

  test.each([
    [undefined, 'StructureDefinition profile url not specified'],
    ['', 'StructureDefinition profile url not specified'],
    [
      'http://example.org/StructureDefinition/nope',
      'StructureDefinition profile with URL http://example.org/StructureDefinition/nope not found',
    ],
  ])('url %j is 400: %s', async (url, text) => {
    const response = await expandProfile(url);
    expect(response.status).toBe(400);
    expect(outcomeText(response.body)).toBe(text);
    expect(outcomeExpression(response.body)).toEqual(['url']);
  });

  test('an unknown parameter is 400', async () => {
    const response = await call(
      clinic.server,
      'GET',
      `fhir/R4/StructureDefinition/$expand-profile?url=${BASE}bp&depth=2`,
      clinic.chen,
    );
    expect(response.status).toBe(400);
    expect(outcomeExpression(response.body)).toEqual(['depth']);
  });
});
