// A QuestionnaireResponse is checked against its Questionnaire on every write (SPEC §5 validation,
// SPEC §6: a patient answers the clinic's forms): over real HTTP, on PGlite and PostgreSQL, as
// Maria. Bad answers get a 400 OperationOutcome naming the item's linkId; nothing is stored.
import type {
  Bundle,
  OperationOutcome,
  Questionnaire,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';
import { call } from '../operations/support/clinic';
import { startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const URL = 'https://bloom.example/fhir/Questionnaire/validation-test';

const FORM: Questionnaire = {
  resourceType: 'Questionnaire',
  url: URL,
  version: '2',
  status: 'active',
  title: 'Validation test',
  item: [
    { linkId: 'intro', type: 'display', text: 'About you' },
    { linkId: 'smokes', type: 'boolean', text: 'Do you smoke?', required: true },
    {
      linkId: 'per-day',
      type: 'integer',
      text: 'Cigarettes a day',
      required: true,
      enableWhen: [{ question: 'smokes', operator: '=', answerBoolean: true }],
    },
    { linkId: 'weight', type: 'decimal', text: 'Weight (kg)' },
    { linkId: 'due', type: 'date', text: 'Due date' },
    { linkId: 'name', type: 'string', text: 'Name' },
    { linkId: 'notes', type: 'text', text: 'Notes' },
    {
      linkId: 'symptoms',
      type: 'choice',
      text: 'Symptoms',
      repeats: true,
      answerOption: [
        { valueCoding: { system: 'urn:test', code: 'nausea', display: 'Nausea' } },
        { valueCoding: { system: 'urn:test', code: 'headache', display: 'Headache' } },
      ],
    },
    {
      linkId: 'contact',
      type: 'group',
      text: 'Contact',
      item: [
        { linkId: 'contact-name', type: 'string', text: 'Name' },
        { linkId: 'contact-phone', type: 'string', text: 'Phone', required: true },
      ],
    },
  ],
};

const one = (linkId: string, answer: QuestionnaireResponseItem['answer']): QuestionnaireResponseItem => ({
  linkId,
  answer,
});

describe.each(databases())('QuestionnaireResponse validation on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;

  function response(
    item: QuestionnaireResponseItem[],
    status: QuestionnaireResponse['status'] = 'completed',
  ) {
    return {
      resourceType: 'QuestionnaireResponse',
      questionnaire: `${URL}|2`,
      status,
      subject: { reference: maria },
      author: { reference: maria },
      item,
    } satisfies QuestionnaireResponse;
  }

  const valid = (): QuestionnaireResponseItem[] => [
    one('smokes', [{ valueBoolean: true }]),
    one('per-day', [{ valueInteger: 3 }]),
    one('weight', [{ valueDecimal: 71.5 }]),
    one('due', [{ valueDate: '2027-03-01' }]),
    one('name', [{ valueString: 'Maria' }]),
    one('notes', [{ valueString: 'Line one\nline two' }]),
    one('symptoms', [
      { valueCoding: { system: 'urn:test', code: 'nausea', display: 'Nausea' } },
      { valueCoding: { system: 'urn:test', code: 'headache', display: 'Headache' } },
    ]),
    { linkId: 'contact', item: [one('contact-phone', [{ valueString: '555-0100' }])] },
  ];

  async function post(body: unknown) {
    return call<QuestionnaireResponse>(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
      body,
    });
  }

  /** The issue texts of a refusal's OperationOutcome. */
  function texts(outcome: unknown): string[] {
    return ((outcome as OperationOutcome).issue ?? []).map((issue) => issue.details?.text ?? '');
  }

  async function mariasResponses(): Promise<number> {
    const found = await call<Bundle>(
      clinic.server,
      'GET',
      `fhir/R4/QuestionnaireResponse?subject=${maria}&_summary=count`,
      clinic.maria,
    );
    return found.body.total ?? -1;
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = clinic.maria.profile?.reference as string;
    const created = await call(clinic.server, 'POST', 'fhir/R4/Questionnaire', clinic.admin, { body: FORM });
    expect(created.status).toBe(201);
    // The same url in another project is not this clinic's form.
    const elsewhere = await call(clinic.server, 'POST', 'fhir/R4/Questionnaire', clinic.otherAdmin, {
      body: { ...FORM, url: `${URL}-elsewhere` },
    });
    expect(elsewhere.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('stores a response whose answers match every item type (201)', async () => {
    const created = await post(response(valid()));
    expect(created.status).toBe(201);
    expect(created.body.item?.map((item) => item.linkId)).toEqual([
      'smokes',
      'per-day',
      'weight',
      'due',
      'name',
      'notes',
      'symptoms',
      'contact',
    ]);
  });

  it('does not ask for a required question that enableWhen hides', async () => {
    const created = await post(
      response([
        one('smokes', [{ valueBoolean: false }]),
        { linkId: 'contact', item: [one('contact-phone', [{ valueString: '1' }])] },
      ]),
    );
    expect(created.status).toBe(201);
  });

  it.each([
    [
      'an unknown linkId',
      [...valid(), one('shoe-size', [{ valueInteger: 38 }])],
      "Unknown linkId 'shoe-size'",
    ],
    [
      'an unknown linkId inside a group',
      [
        ...valid().slice(0, 7),
        {
          linkId: 'contact',
          item: [one('contact-phone', [{ valueString: '1' }]), one('fax', [{ valueString: '2' }])],
        },
      ],
      "Unknown linkId 'fax'",
    ],
    [
      'a string for an integer',
      [
        one('smokes', [{ valueBoolean: true }]),
        one('per-day', [{ valueString: 'three' }]),
        ...valid().slice(2),
      ],
      "'Cigarettes a day' (per-day) needs a whole number",
    ],
    [
      'an integer for a decimal',
      [...valid().slice(0, 2), one('weight', [{ valueInteger: 70 }]), ...valid().slice(3)],
      "'Weight (kg)' (weight) needs a number",
    ],
    [
      'a coding not among the options',
      [
        ...valid().slice(0, 6),
        one('symptoms', [{ valueCoding: { system: 'urn:test', code: 'fever' } }]),
        valid()[7],
      ],
      "'Symptoms' (symptoms): the answer is not one of the options",
    ],
    [
      'two answers to a question that does not repeat',
      [one('smokes', [{ valueBoolean: true }, { valueBoolean: false }]), ...valid().slice(1)],
      "'Do you smoke?' (smokes) takes one answer, not 2",
    ],
    [
      'an answer to a display item',
      [one('intro', [{ valueString: 'hi' }]), ...valid()],
      "'About you' (intro) is a display and takes no answer",
    ],
    ['a required question left out', valid().slice(2), "'Do you smoke?' (smokes) is required"],
    [
      'a required question shown by enableWhen left out',
      [valid()[0], ...valid().slice(2)],
      "'Cigarettes a day' (per-day) is required",
    ],
    [
      'a required question of a group left out',
      [...valid().slice(0, 7), { linkId: 'contact', item: [one('contact-name', [{ valueString: 'Ana' }])] }],
      "'Phone' (contact-phone) is required",
    ],
  ])('refuses %s with a 400 naming the linkId, and stores nothing', async (_name, item, message) => {
    const before = await mariasResponses();
    const refused = await post(response(item));
    expect(refused.status).toBe(400);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(texts(refused.body).join('\n')).toContain(message);
    expect(await mariasResponses()).toBe(before);
  });

  it('accepts an in-progress response with required questions still open', async () => {
    expect((await post(response([one('weight', [{ valueDecimal: 70 }])], 'in-progress'))).status).toBe(201);
  });

  it('finds a form without a url by its reference, Questionnaire/{id}', async () => {
    const { url: _url, ...withoutUrl } = FORM;
    const created = await call<Questionnaire>(clinic.server, 'POST', 'fhir/R4/Questionnaire', clinic.admin, {
      body: withoutUrl,
    });
    expect(created.status).toBe(201);
    const questionnaire = `Questionnaire/${created.body.id}`;
    expect((await post({ ...response(valid()), questionnaire })).status).toBe(201);
    const refused = await post({ ...response(valid().slice(1)), questionnaire });
    expect(refused.status).toBe(400);
    expect(texts(refused.body)).toContain("'Do you smoke?' (smokes) is required");
  });

  it("refuses a form that is not her clinic's, or does not exist (400)", async () => {
    for (const questionnaire of [`${URL}-elsewhere`, `${URL}|9`, 'https://bloom.example/nothing']) {
      const refused = await post({ ...response(valid()), questionnaire });
      expect(refused.status).toBe(400);
      expect(texts(refused.body)[0]).toContain(`no Questionnaire ${questionnaire} in this project`);
    }
  });

  it('checks updates, patches and transaction entries the same way', async () => {
    const created = await post(response(valid()));
    expect(created.status).toBe(201);
    const path = `fhir/R4/QuestionnaireResponse/${created.body.id}`;
    // Her policy does not let her change a sent response: the clinic's admin corrects one.
    const put = await call<OperationOutcome>(clinic.server, 'PUT', path, clinic.admin, {
      body: { ...created.body, item: [...valid(), one('shoe-size', [{ valueInteger: 38 }])] },
    });
    expect(put.status).toBe(400);
    expect(texts(put.body).join('\n')).toContain("Unknown linkId 'shoe-size'");
    const patch = await call<OperationOutcome>(clinic.server, 'PATCH', path, clinic.admin, {
      body: [{ op: 'replace', path: '/item/1/answer/0', value: { valueString: 'many' } }],
      contentType: 'application/json-patch+json',
    });
    expect(patch.status).toBe(400);
    expect(texts(patch.body)).toContain("'Cigarettes a day' (per-day) needs a whole number");
    const before = await mariasResponses();
    const transaction = await call<OperationOutcome>(clinic.server, 'POST', 'fhir/R4', clinic.maria, {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { request: { method: 'POST', url: 'QuestionnaireResponse' }, resource: response(valid()) },
          { request: { method: 'POST', url: 'QuestionnaireResponse' }, resource: response(valid().slice(1)) },
        ],
      },
    });
    expect(transaction.status).toBe(400);
    expect(JSON.stringify(transaction.body)).toContain("'Do you smoke?' (smokes) is required");
    expect(await mariasResponses()).toBe(before);
    const read = await call<QuestionnaireResponse>(clinic.server, 'GET', path, clinic.maria);
    expect(read.body.meta?.versionId).toBe(created.body.meta?.versionId);
  });
});
