// The shape of a QuestionnaireResponse against its Questionnaire (SPEC §5 validation, SPEC §6: a
// patient answers the clinic's forms): repeating groups and questions, items that do not repeat
// given twice, required questions in each instance of a repeating group, and answers to items
// that enableWhen hides (operators =, !=, >=, <, exists; enableBehavior any), judged inside a group
// instance by that instance's own answers. Over real HTTP as Maria, on PGlite and PostgreSQL;
// every refusal is a 400 OperationOutcome naming the linkId, and nothing is stored.
import type {
  Bundle,
  OperationOutcome,
  Questionnaire,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const URL = 'https://bloom.example/fhir/Questionnaire/repeats-test';

const FORM: Questionnaire = {
  resourceType: 'Questionnaire',
  url: URL,
  status: 'active',
  title: 'Repeats test',
  item: [
    {
      linkId: 'household',
      type: 'group',
      text: 'Household',
      repeats: true,
      item: [
        { linkId: 'member-name', type: 'string', text: 'Name', required: true },
        { linkId: 'member-smokes', type: 'boolean', text: 'Smokes' },
        {
          linkId: 'member-per-day',
          type: 'integer',
          text: 'Cigarettes a day',
          required: true,
          enableWhen: [{ question: 'member-smokes', operator: '=', answerBoolean: true }],
        },
      ],
    },
    { linkId: 'allergies', type: 'string', text: 'Allergies', repeats: true },
    {
      linkId: 'contact',
      type: 'group',
      text: 'Contact',
      item: [{ linkId: 'phone', type: 'string', text: 'Phone' }],
    },
    { linkId: 'score', type: 'integer', text: 'Score' },
    {
      linkId: 'follow-up',
      type: 'string',
      text: 'Who to call',
      required: true,
      enableWhen: [{ question: 'score', operator: '>=', answerInteger: 10 }],
    },
    {
      linkId: 'calm',
      type: 'string',
      text: 'What helps',
      enableWhen: [
        { question: 'score', operator: '<', answerInteger: 3 },
        { question: 'allergies', operator: 'exists', answerBoolean: true },
      ],
      enableBehavior: 'any',
    },
    {
      linkId: 'not-none',
      type: 'string',
      text: 'Which allergy worries you',
      enableWhen: [{ question: 'allergies', operator: '!=', answerString: 'none' }],
    },
  ],
};

const one = (linkId: string, answer: QuestionnaireResponseItem['answer']): QuestionnaireResponseItem => ({
  linkId,
  answer,
});

const member = (name: string | undefined, smokes: boolean, perDay?: number): QuestionnaireResponseItem => ({
  linkId: 'household',
  item: [
    ...(name === undefined ? [] : [one('member-name', [{ valueString: name }])]),
    one('member-smokes', [{ valueBoolean: smokes }]),
    ...(perDay === undefined ? [] : [one('member-per-day', [{ valueInteger: perDay }])]),
  ],
});

describe.each(databases())('QuestionnaireResponse repeats and enableWhen on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;

  const response = (item: QuestionnaireResponseItem[]): QuestionnaireResponse => ({
    resourceType: 'QuestionnaireResponse',
    questionnaire: URL,
    status: 'completed',
    subject: { reference: maria },
    author: { reference: maria },
    item,
  });

  const post = (item: QuestionnaireResponseItem[]) =>
    call<QuestionnaireResponse>(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
      body: response(item),
    });

  const texts = (outcome: unknown): string[] =>
    ((outcome as OperationOutcome).issue ?? []).map((issue) => issue.details?.text ?? '');

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
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('stores two instances of a repeating group, each judged by its own answers, and a repeating question', async () => {
    const created = await post([
      member('Ana', true, 5),
      // The second member does not smoke: her own "Cigarettes a day" is not asked.
      member('Luis', false),
      one('allergies', [{ valueString: 'nuts' }, { valueString: 'pollen' }]),
      { linkId: 'contact', item: [one('phone', [{ valueString: '555-0100' }])] },
      one('score', [{ valueInteger: 12 }]),
      one('follow-up', [{ valueString: 'My sister' }]),
      one('calm', [{ valueString: 'Walking' }]),
      one('not-none', [{ valueString: 'nuts' }]),
    ]);
    expect(created.status).toBe(201);
    expect(created.body.item?.filter((item) => item.linkId === 'household')).toHaveLength(2);
  });

  it('stores a response where enableWhen hides what is left out (score < 10, no allergies)', async () => {
    expect((await post([member('Ana', false), one('score', [{ valueInteger: 2 }])])).status).toBe(201);
  });

  it.each([
    [
      'a question that does not repeat given as two items',
      [member('Ana', false), one('score', [{ valueInteger: 1 }]), one('score', [{ valueInteger: 2 }])],
      "'Score' (score) appears more than once: give its answers in one item",
    ],
    [
      'two instances of a group that does not repeat',
      [
        member('Ana', false),
        { linkId: 'contact', item: [one('phone', [{ valueString: '1' }])] },
        { linkId: 'contact', item: [one('phone', [{ valueString: '2' }])] },
      ],
      "'Contact' (contact) is a group that does not repeat: it appears more than once",
    ],
    [
      'a required question missing in the second instance of a repeating group',
      [member('Ana', false), member(undefined, false)],
      "'Name' (member-name) is required in entry 2 of 'Household' (household)",
    ],
    [
      'a question shown in one instance required there, not in the other (the first member smokes)',
      [member('Ana', true), member('Luis', false)],
      "'Cigarettes a day' (member-per-day) is required in entry 1 of 'Household' (household)",
    ],
    [
      'an answer to a question hidden in its own instance, though shown in another',
      [member('Ana', true, 3), member('Luis', false, 4)],
      "'Cigarettes a day' (member-per-day) is not asked with the answers given (enableWhen): leave it out",
    ],
    [
      "an answer to a question hidden by '>=' (score 9)",
      [member('Ana', false), one('score', [{ valueInteger: 9 }]), one('follow-up', [{ valueString: 'x' }])],
      "'Who to call' (follow-up) is not asked with the answers given (enableWhen): leave it out",
    ],
    [
      "a required question shown by '>=' left out (score 10)",
      [member('Ana', false), one('score', [{ valueInteger: 10 }])],
      "'Who to call' (follow-up) is required",
    ],
    [
      "an answer to a question hidden under enableBehavior 'any' (score 3, no allergies)",
      [member('Ana', false), one('score', [{ valueInteger: 3 }]), one('calm', [{ valueString: 'x' }])],
      "'What helps' (calm) is not asked with the answers given (enableWhen): leave it out",
    ],
    [
      "an answer to a question hidden by '!=' (the only allergy is 'none')",
      [
        member('Ana', false),
        one('allergies', [{ valueString: 'none' }]),
        one('not-none', [{ valueString: 'x' }]),
      ],
      "'Which allergy worries you' (not-none) is not asked with the answers given (enableWhen): leave it out",
    ],
    [
      'a group given when the questionnaire holds it elsewhere (an unknown linkId inside an instance)',
      [
        {
          linkId: 'household',
          item: [one('member-name', [{ valueString: 'Ana' }]), one('phone', [{ valueString: '1' }])],
        },
      ],
      "Unknown linkId 'phone': the questionnaire has no such item here",
    ],
  ])('refuses %s with a 400 naming the linkId, and stores nothing', async (_name, item, message) => {
    const before = await mariasResponses();
    const refused = await post(item);
    expect(refused.status).toBe(400);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(texts(refused.body)).toContain(message);
    expect(await mariasResponses()).toBe(before);
  });
});
