// A coded answer to an item with `answerValueSet` must be a code of that value set, as the server's
// own ValueSet/$expand gives it to the writer (SPEC §5 validation, SPEC §7 valueSetExpand): over
// real HTTP, on PGlite and PostgreSQL. A value set that cannot be found or expanded leaves its
// answers unchecked (the HL7 validator's warning, not an error): the response is stored.
import type {
  OperationOutcome,
  Questionnaire,
  QuestionnaireResponseItemAnswer,
  ValueSet,
} from '@medplum/fhirtypes';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';

const FORM_URL = 'https://bloom.example/fhir/Questionnaire/answer-value-set';
const CLINIC_VS = 'https://bloom.example/fhir/ValueSet/feeding';
const GENDER_VS = 'http://hl7.org/fhir/ValueSet/administrative-gender';
const MISSING_VS = 'https://bloom.example/fhir/ValueSet/never-stored';
const UNEXPANDABLE_VS = 'https://bloom.example/fhir/ValueSet/all-of-snomed';

const FEEDING: ValueSet = {
  resourceType: 'ValueSet',
  url: CLINIC_VS,
  status: 'active',
  compose: {
    include: [
      {
        system: 'https://bloom.example/fhir/CodeSystem/feeding',
        concept: [{ code: 'breast' }, { code: 'bottle' }],
      },
    ],
  },
};

const FORM: Questionnaire = {
  resourceType: 'Questionnaire',
  url: FORM_URL,
  status: 'active',
  item: [
    { linkId: 'gender', type: 'choice', text: 'Baby', answerValueSet: GENDER_VS },
    { linkId: 'feeding', type: 'choice', text: 'Feeding', answerValueSet: CLINIC_VS, repeats: true },
    { linkId: 'missing', type: 'choice', text: 'Missing', answerValueSet: MISSING_VS },
    { linkId: 'unexpandable', type: 'open-choice', text: 'Diagnosis', answerValueSet: UNEXPANDABLE_VS },
    {
      linkId: 'group',
      type: 'group',
      item: [{ linkId: 'nested-gender', type: 'choice', text: 'Partner', answerValueSet: GENDER_VS }],
    },
  ],
};

const GENDER = 'http://hl7.org/fhir/administrative-gender';
const FEEDING_SYSTEM = 'https://bloom.example/fhir/CodeSystem/feeding';

describe.each(databases())('answerValueSet answers on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;

  async function answer(as: Tokens, linkId: string, answers: QuestionnaireResponseItemAnswer[]) {
    const item =
      linkId === 'nested-gender'
        ? [{ linkId: 'group', item: [{ linkId, answer: answers }] }]
        : [{ linkId, answer: answers }];
    return call<OperationOutcome>(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', as, {
      body: {
        resourceType: 'QuestionnaireResponse',
        questionnaire: FORM_URL,
        status: 'completed',
        subject: { reference: maria },
        author: as === clinic.maria ? { reference: maria } : undefined,
        item,
      },
    });
  }

  const coding = (system: string | undefined, code: string): QuestionnaireResponseItemAnswer => ({
    valueCoding: system === undefined ? { code } : { system, code },
  });

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = clinic.maria.profile?.reference as string;
    for (const body of [
      FEEDING,
      {
        resourceType: 'ValueSet',
        url: UNEXPANDABLE_VS,
        status: 'active',
        compose: {
          include: [
            {
              system: 'http://snomed.info/sct',
              filter: [{ property: 'concept', op: 'is-a', value: '404684003' }],
            },
          ],
        },
      },
      FORM,
    ]) {
      const created = await call(clinic.server, 'POST', `fhir/R4/${body.resourceType}`, clinic.admin, {
        body,
      });
      expect(created.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('stores codes of a FHIR definitions value set and of the clinic stored one (201)', async () => {
    expect((await answer(clinic.maria, 'gender', [coding(GENDER, 'female')])).status).toBe(201);
    expect((await answer(clinic.maria, 'nested-gender', [coding(GENDER, 'male')])).status).toBe(201);
    // A coding that names no system is matched by its code, as $expand lists it.
    expect((await answer(clinic.maria, 'gender', [coding(undefined, 'other')])).status).toBe(201);
    const both = [coding(FEEDING_SYSTEM, 'breast'), coding(FEEDING_SYSTEM, 'bottle')];
    expect((await answer(clinic.admin, 'feeding', both)).status).toBe(201);
  });

  it.each([
    ['a code the value set does not have', 'gender', [coding(GENDER, 'robot')], "'Baby' (gender)"],
    ['a right code of another system', 'gender', [coding('urn:other', 'female')], "'Baby' (gender)"],
    ['a wrong code in a group', 'nested-gender', [coding(GENDER, 'x')], "'Partner' (nested-gender)"],
    [
      'one wrong code among right ones',
      'feeding',
      [coding(FEEDING_SYSTEM, 'breast'), coding(FEEDING_SYSTEM, 'formula')],
      "'Feeding' (feeding)",
    ],
  ])('refuses %s with a 400 naming the item', async (_name, linkId, answers, label) => {
    const refused = await answer(clinic.admin, linkId, answers);
    expect(refused.status).toBe(400);
    expect(refused.body.issue?.map((issue) => issue.details?.text)).toContain(
      `${label}: the answer is not one of the options`,
    );
  });

  it('leaves answers unchecked when the value set cannot be found or expanded (stored, 201)', async () => {
    expect((await answer(clinic.admin, 'missing', [coding('urn:any', 'anything')])).status).toBe(201);
    expect((await answer(clinic.admin, 'unexpandable', [coding('http://snomed.info/sct', '1')])).status).toBe(
      201,
    );
    // $expand says the same to the same caller: these value sets are not available to check against.
    for (const url of [MISSING_VS, UNEXPANDABLE_VS]) {
      const expand = await call(
        clinic.server,
        'GET',
        `fhir/R4/ValueSet/$expand?url=${encodeURIComponent(url)}`,
        clinic.admin,
      );
      expect(expand.status).toBe(400);
    }
  });

  it('checks against what the writer may expand: a value set her policy hides is not available to her', async () => {
    // The demo patient policy does not grant ValueSet: $expand of the clinic's value set is a 400 for
    // her, so her answer to it is not checked, and the same wrong code is refused for the admin.
    const expand = await call(
      clinic.server,
      'GET',
      `fhir/R4/ValueSet/$expand?url=${encodeURIComponent(CLINIC_VS)}`,
      clinic.maria,
    );
    expect(expand.status).toBe(400);
    expect((await answer(clinic.maria, 'feeding', [coding(FEEDING_SYSTEM, 'formula')])).status).toBe(201);
    expect((await answer(clinic.admin, 'feeding', [coding(FEEDING_SYSTEM, 'formula')])).status).toBe(400);
  });
});
