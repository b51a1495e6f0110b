// What Medplum's patient portal looks for in the seeded demo clinic (SPEC §3): care plans,
// the clinic's questionnaires and the patients' answers, insurance, and the prenatal care service,
// each linked as the portal follows the links, on each database engine.
import type {
  Appointment,
  CarePlan,
  Coverage,
  HealthcareService,
  Organization,
  Patient,
  Questionnaire,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  Reference,
  Resource,
  Schedule,
} from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { databases } from '../support/test-databases';

const TODAY = new Date('2026-03-10T10:00:00Z');

describe.each(databases())('the seeded demo clinic holds the patient portal data on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let maria: Patient;
  let aisha: Patient;

  async function listAll<T extends Resource>(type: T['resourceType']): Promise<T[]> {
    return (await repo.listNewest<T>(type, { count: 1000, offset: 0 })).items;
  }

  async function resolve<T extends Resource>(ref: Reference | undefined): Promise<T> {
    const [type, id] = (ref?.reference ?? '').split('/');
    return repo.readResource<T>(type, id);
  }

  const patientOf = (patient: Patient): string => `Patient/${patient.id}`;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
    await seedDemoClinic(repo, { today: TODAY, demoPassword: 'bloom-demo' });
    const patients = await listAll<Patient>('Patient');
    const byEmail = (email: string): Patient =>
      patients.find((p) => p.telecom?.some((t) => t.value === email)) as Patient;
    maria = byEmail('maria@bloom.example');
    aisha = byEmail('aisha@bloom.example');
  }, 60_000);

  afterAll(async () => {
    await db.close();
  });

  test('a CarePlan each: active plan, subject the patient, activities with kind, code, status and period', async () => {
    // The plans made from the clinic's pregnancy template are tested in plan-definition-apply.test.ts.
    const plans = (await listAll<CarePlan>('CarePlan')).filter((plan) => !plan.instantiatesCanonical);
    expect(plans.map((p) => p.subject?.reference).sort()).toEqual(
      [patientOf(maria), patientOf(aisha)].sort(),
    );
    for (const plan of plans) {
      expect(plan).toMatchObject({ status: 'active', intent: 'plan' });
      expect(plan.title && plan.description && plan.period?.start).toBeTruthy();
      expect(plan.category?.[0]?.coding?.[0]?.code).toBe('assess-plan');
      expect((await resolve<Patient>(plan.subject)).id).toBe(plan.subject?.reference?.split('/')[1]);
      expect(plan.meta?.compartment).toEqual([{ reference: plan.subject?.reference }]);
      expect(plan.activity?.length).toBeGreaterThanOrEqual(2);
      for (const { detail } of plan.activity ?? []) {
        expect(detail?.kind && detail.status && detail.code?.text).toBeTruthy();
        expect(detail?.scheduledPeriod?.start && detail.scheduledPeriod.end).toBeTruthy();
      }
    }
    const mariaPlan = plans.find((p) => p.subject?.reference === patientOf(maria)) as CarePlan;
    expect(mariaPlan.activity?.map((a) => a.detail?.code?.text)).toEqual(
      expect.arrayContaining(['Prenatal care', 'Glucose screening (1 hour, 50 g)']),
    );
    // The visits point at Maria's own Appointments.
    const visits = mariaPlan.activity?.find((a) => a.detail?.kind === 'Appointment');
    expect(visits?.outcomeReference?.length).toBe(8);
    for (const ref of visits?.outcomeReference ?? []) {
      const appointment = await resolve<Appointment>(ref);
      expect(appointment.resourceType).toBe('Appointment');
      expect(appointment.participant.map((p) => p.actor?.reference)).toContain(patientOf(maria));
    }
  });

  test('two active Questionnaires for patients; the mood screening has 10 choice items scored 0-3', async () => {
    const questionnaires = await listAll<Questionnaire>('Questionnaire');
    expect(questionnaires).toHaveLength(2);
    for (const questionnaire of questionnaires) {
      expect(questionnaire).toMatchObject({ status: 'active', subjectType: ['Patient'] });
      expect(questionnaire.url && questionnaire.name && questionnaire.title).toBeTruthy();
    }
    const screening = questionnaires.find((q) => q.name === 'BloomPregnancyMoodScreening') as Questionnaire;
    expect(screening.item).toHaveLength(10);
    for (const item of screening.item ?? []) {
      expect(item.type).toBe('choice');
      expect(item.answerOption?.map((o) => Number(o.valueCoding?.code)).sort()).toEqual([0, 1, 2, 3]);
    }
    expect(questionnaires.map((q) => q.name)).toContain('BloomPregnancyIntake');
  });

  test("completed QuestionnaireResponses whose questionnaire is a Questionnaire's url, answering its items", async () => {
    const questionnaires = await listAll<Questionnaire>('Questionnaire');
    const responses = await listAll<QuestionnaireResponse>('QuestionnaireResponse');
    expect(responses.filter((r) => r.subject?.reference === patientOf(maria))).toHaveLength(2);
    expect(responses.filter((r) => r.subject?.reference === patientOf(aisha))).toHaveLength(1);
    for (const response of responses) {
      expect(response.status).toBe('completed');
      expect(response.authored).toBeTruthy();
      expect(response.meta?.compartment).toEqual([{ reference: response.subject?.reference }]);
      const questionnaire = questionnaires.find((q) => q.url === response.questionnaire) as Questionnaire;
      expect(questionnaire).toBeDefined();
      const items = (questionnaire.item ?? []).flatMap((i) => [i, ...(i.item ?? [])]);
      const answered = (response.item ?? []).flatMap((i): QuestionnaireResponseItem[] => [
        i,
        ...(i.item ?? []),
      ]);
      expect(answered.map((a) => a.linkId)).toEqual(items.map((i) => i.linkId));
      for (const answer of answered) {
        const item = items.find((i) => i.linkId === answer.linkId);
        if (item?.type === 'group') {
          expect(answer.answer).toBeUndefined();
        } else if (item?.type === 'choice') {
          // The options carry their Spanish (`_display`); an answer stores the coding itself.
          const offered = item.answerOption?.map((o) => ({
            system: o.valueCoding?.system,
            code: o.valueCoding?.code,
            display: o.valueCoding?.display,
          }));
          expect(offered).toContainEqual(answer.answer?.[0]?.valueCoding);
        } else {
          expect(answer.answer).toHaveLength(1);
        }
      }
    }
  });

  test('an active Coverage each: the patient as beneficiary, paid by an Organization of the demo', async () => {
    const coverages = await listAll<Coverage>('Coverage');
    expect(coverages.map((c) => c.beneficiary.reference).sort()).toEqual(
      [patientOf(maria), patientOf(aisha)].sort(),
    );
    for (const coverage of coverages) {
      expect(coverage.status).toBe('active');
      expect(
        coverage.subscriberId && coverage.period?.start && coverage.type?.coding?.[0]?.code,
      ).toBeTruthy();
      const payor = await resolve<Organization>(coverage.payor[0]);
      expect([payor.resourceType, payor.name]).toEqual(['Organization', 'Prairie Health Insurance']);
      expect(coverage.meta?.compartment).toEqual([{ reference: coverage.beneficiary.reference }]);
    }
  });

  test("the clinic's HealthcareService: type is the Schedule's serviceType, provided by the clinic", async () => {
    const [service, ...others] = await listAll<HealthcareService>('HealthcareService');
    expect(others).toEqual([]);
    const [schedule] = await listAll<Schedule>('Schedule');
    expect(schedule.serviceType?.[0]?.coding).toHaveLength(1);
    // The same codes, and the Schedule names the service as Medplum's scheduling reads it.
    const { extension, ...codes } = schedule.serviceType?.[0] ?? {};
    expect(service.type).toEqual([codes]);
    expect(extension).toEqual([
      {
        url: 'https://medplum.com/fhir/service-type-reference',
        valueReference: { reference: `HealthcareService/${service.id}`, display: 'Prenatal care' },
      },
    ]);
    const clinic = await resolve<Organization>(service.providedBy);
    expect([clinic.resourceType, clinic.name]).toEqual(['Organization', 'Bloom Clinic']);
    expect(service.active).toBe(true);
  });
});
