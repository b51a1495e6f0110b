// The Questionnaire a QuestionnaireResponse answers is looked up with the writer's AccessPolicy
// (SPEC §6: what a patient may read is her policy's to say): over real HTTP, on PGlite and
// PostgreSQL. A form her policy hides is answered exactly as a form that does not exist (400, the
// same message), so a refusal never reveals it.
import type { AccessPolicy, Bundle, OperationOutcome, Questionnaire } from '@medplum/fhirtypes';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const SHOWN = 'https://bloom.example/fhir/Questionnaire/policy-shown';
const HIDDEN = 'https://bloom.example/fhir/Questionnaire/policy-hidden';

function form(url: string, status: Questionnaire['status']): Questionnaire {
  return {
    resourceType: 'Questionnaire',
    url,
    status,
    title: 'Policy test',
    item: [{ linkId: 'feeling', type: 'string', text: 'How are you?' }],
  };
}

describe.each(databases())('QuestionnaireResponse and the writer policy on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;
  let hiddenId: string;

  async function answer(questionnaire: string) {
    return call<OperationOutcome>(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
      body: {
        resourceType: 'QuestionnaireResponse',
        questionnaire,
        status: 'completed',
        subject: { reference: maria },
        author: { reference: maria },
        item: [{ linkId: 'feeling', answer: [{ valueString: 'Well' }] }],
      },
    });
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
    // The clinic's admin narrows the patients' policy: only active forms are theirs to read.
    const policies = await call<Bundle<AccessPolicy>>(
      clinic.server,
      'GET',
      'fhir/R4/AccessPolicy?name=Bloom%20patient',
      clinic.admin,
    );
    const policy = policies.body.entry?.[0]?.resource as AccessPolicy;
    expect(policy.name).toBe('Bloom patient');
    const resource = (policy.resource ?? []).map((entry) =>
      entry.resourceType === 'Questionnaire' ? { ...entry, criteria: 'Questionnaire?status=active' } : entry,
    );
    const put = await call(clinic.server, 'PUT', `fhir/R4/AccessPolicy/${policy.id}`, clinic.admin, {
      body: { ...policy, resource },
    });
    expect(put.status).toBe(200);
    const shown = await call(clinic.server, 'POST', 'fhir/R4/Questionnaire', clinic.admin, {
      body: form(SHOWN, 'active'),
    });
    expect(shown.status).toBe(201);
    const hidden = await call<Questionnaire>(clinic.server, 'POST', 'fhir/R4/Questionnaire', clinic.admin, {
      body: form(HIDDEN, 'draft'),
    });
    expect(hidden.status).toBe(201);
    hiddenId = hidden.body.id as string;
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it('lets her answer a form her policy lets her read (201)', async () => {
    expect((await answer(SHOWN)).status).toBe(201);
  });

  it('refuses a hidden form exactly as an absent one (400, same words), and stores nothing', async () => {
    // The policy does hide it from her, and her admin still sees it.
    expect((await call(clinic.server, 'GET', `fhir/R4/Questionnaire/${hiddenId}`, clinic.maria)).status).toBe(
      404,
    );
    expect((await call(clinic.server, 'GET', `fhir/R4/Questionnaire/${hiddenId}`, clinic.admin)).status).toBe(
      200,
    );
    const before = await mariasResponses();
    const absent = 'https://bloom.example/fhir/Questionnaire/policy-absent';
    const cases: [string, string][] = [
      [HIDDEN, absent],
      [`Questionnaire/${hiddenId}`, 'Questionnaire/no-such-form'],
    ];
    for (const [hiddenName, absentName] of cases) {
      const refusedHidden = await answer(hiddenName);
      const refusedAbsent = await answer(absentName);
      expect(refusedHidden.status).toBe(400);
      expect(refusedAbsent.status).toBe(refusedHidden.status);
      const text = (outcome: OperationOutcome, name: string) =>
        JSON.stringify(outcome.issue).replace(name, '{questionnaire}');
      expect(text(refusedHidden.body, hiddenName)).toBe(text(refusedAbsent.body, absentName));
      expect(refusedHidden.body.issue?.[0]?.details?.text).toBe(
        `QuestionnaireResponse.questionnaire: no Questionnaire ${hiddenName} in this project`,
      );
    }
    expect(await mariasResponses()).toBe(before);
  });

  it('still lets the admin, who may read the hidden form, store a response to it', async () => {
    const created = await call(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.admin, {
      body: {
        resourceType: 'QuestionnaireResponse',
        questionnaire: HIDDEN,
        status: 'completed',
        subject: { reference: maria },
        item: [{ linkId: 'feeling', answer: [{ valueString: 'Well' }] }],
      },
    });
    expect(created.status).toBe(201);
  });
});
