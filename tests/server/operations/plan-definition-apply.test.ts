// PlanDefinition/{id}/$apply over real HTTP with Medplum's MedplumClient (SPEC §6 access, §7 calls):
// the seeded pregnancy care template becomes a CarePlan whose activities carry the template's codes
// and dates in weeks of pregnancy; records that already did a step are its outcome (a completed
// response to the step's questionnaire counts only inside the step's window and only for its own
// patient); bad input is a 400 OperationOutcome; a patient never applies a plan to another patient.
import type { MedplumClient } from '@medplum/core';
import type {
  CarePlan,
  CarePlanActivityDetail,
  CodeableConcept,
  Element,
  Observation,
  Parameters,
  Patient,
  PlanDefinition,
  PlanDefinitionAction,
  Questionnaire,
  QuestionnaireResponse,
} from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../src/fhir/screening/epds';
import { PREGNANCY_PLAN_URL } from '../../../src/server/seed/demo/pregnancy-plan';
import { outcomeOf, rejectionOf, signedInClient } from '../../conformance/medplum-sdk/support/medplum-client';
import { databases } from '../support/test-databases';
import { startClinic } from './support/clinic';
import type { Clinic } from './support/clinic';

const DAY_MS = 24 * 60 * 60 * 1000;

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function subject(reference: string): Parameters {
  return { resourceType: 'Parameters', parameter: [{ name: 'subject', valueReference: { reference } }] };
}

describe.each(databases())('PlanDefinition $apply on %s', (_engine, kind) => {
  let clinic: Clinic;
  let chen: MedplumClient;
  let maria: MedplumClient;
  let mariaRef: string;
  let aishaRef: string;
  let template: PlanDefinition;
  const applyUrl = (client: MedplumClient, id = template.id as string) =>
    client.fhirUrl('PlanDefinition', id, '$apply');

  beforeAll(async () => {
    clinic = await startClinic(kind);
    chen = await signedInClient(clinic.server.baseUrl, clinic.chen);
    maria = await signedInClient(clinic.server.baseUrl, clinic.maria);
    mariaRef = clinic.maria.profile?.reference as string;
    aishaRef = clinic.aisha.profile?.reference as string;
    template = (await chen.searchOne('PlanDefinition', { url: PREGNANCY_PLAN_URL })) as PlanDefinition;
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  test('the seed applied the template: Maria has one CarePlan from it, with its nine steps in order', async () => {
    expect(template.action?.map((a) => a.title)).toEqual([
      'Booking visit',
      'Dating scan',
      'Anatomy scan',
      'Glucose test',
      'Tdap vaccine',
      'Mood check (EPDS)',
      'Group B strep swab',
      'Mood check (EPDS)',
      'Postpartum check',
    ]);
    const plans = await maria.searchResources('CarePlan', { 'instantiates-canonical': PREGNANCY_PLAN_URL });
    expect(plans).toHaveLength(1);
    const plan = plans[0];
    expect(plan).toMatchObject({ status: 'active', intent: 'plan', subject: { reference: mariaRef } });
    const steps = (plan.activity ?? []).map((a) => [a.detail?.code?.text, a.detail?.status]);
    // Maria (35 weeks): visits and scans done by her appointments, glucose and strep by her reports;
    // Tdap is not given yet (recorded not-done), nor the mood check she had no response for; the
    // checks after the birth lie ahead.
    expect(steps).toEqual([
      ['Booking visit', 'completed'],
      ['Dating scan', 'completed'],
      ['Anatomy scan', 'completed'],
      ['Glucose test', 'completed'],
      ['Tdap vaccine', 'not-started'],
      ['Mood check (EPDS)', 'not-started'],
      ['Group B strep swab', 'completed'],
      ['Mood check (EPDS)', 'not-started'],
      ['Postpartum check', 'not-started'],
    ]);
    const outcomes = (plan.activity ?? []).map((a) => a.outcomeReference?.[0]?.reference?.split('/')[0]);
    expect(outcomes).toEqual([
      'Appointment',
      'Appointment',
      'Appointment',
      'DiagnosticReport',
      undefined,
      undefined,
      'DiagnosticReport',
      undefined,
      undefined,
    ]);
  });

  test('the template carries Spanish (translation extensions) and $apply copies it into the CarePlan', async () => {
    type Translated = { _title?: Element; _text?: Element; _description?: Element };
    const spanishOf = (element: Element | undefined) =>
      element?.extension
        ?.find((e) => e.url === 'http://hl7.org/fhir/StructureDefinition/translation')
        ?.extension?.find((e) => e.url === 'content')?.valueString;
    const booking = template.action?.[0] as PlanDefinitionAction & Translated;
    expect(spanishOf(booking._title)).toEqual(expect.any(String));
    expect(spanishOf(booking._title)).not.toBe(booking.title);
    const plan = await chen.post<CarePlan>(applyUrl(chen), subject(aishaRef));
    const detail = plan.activity?.[0]?.detail as CarePlanActivityDetail & Translated;
    const code = detail.code as CodeableConcept & Translated;
    expect(code.text).toBe('Booking visit');
    expect(spanishOf(code._text)).toBe(spanishOf(booking._title));
    expect(spanishOf(detail._description)).toBe(spanishOf(booking._description));
    // Stored as sent: reading the CarePlan back keeps the Spanish.
    const read = await chen.readResource('CarePlan', plan.id as string);
    const readCode = read.activity?.[0]?.detail?.code as CodeableConcept & Translated;
    expect(spanishOf(readCode._text)).toBe(spanishOf(booking._title));
  });

  test("activity dates are the template's weeks counted from the last period (due date minus 40 weeks)", async () => {
    const dueDate = (await chen.searchOne('Observation', {
      subject: aishaRef,
      code: 'http://loinc.org|11778-8',
    })) as Observation;
    const plan = await chen.post<CarePlan>(applyUrl(chen), subject(aishaRef));
    expect(plan).toMatchObject({
      resourceType: 'CarePlan',
      instantiatesCanonical: [PREGNANCY_PLAN_URL],
      period: { end: dueDate.valueDateTime },
    });
    const lastPeriod = Date.parse(`${dueDate.valueDateTime}T00:00:00Z`) - 280 * DAY_MS;
    const day = (weeks: number) => new Date(lastPeriod + weeks * 7 * DAY_MS).toISOString().slice(0, 10);
    const glucose = plan.activity?.[3]?.detail;
    expect(glucose?.scheduledPeriod).toEqual({ start: day(24), end: day(28) });
    expect(glucose?.code?.coding?.[0]).toMatchObject({ system: 'http://loinc.org', code: '1504-0' });
    expect(plan.activity?.[8]?.detail?.scheduledPeriod).toEqual({ start: day(46), end: day(48) });
    // The mood checks name the Questionnaire to answer (the action's definitionCanonical).
    expect(plan.activity?.[5]?.detail).toMatchObject({
      instantiatesCanonical: [EPDS_QUESTIONNAIRE_URL],
      scheduledPeriod: { start: day(28), end: day(32) },
    });
    expect(plan.activity?.[7]?.detail?.scheduledPeriod).toEqual({ start: day(44), end: day(48) });
    // Stored: Aisha reads it back.
    const aisha = await signedInClient(clinic.server.baseUrl, clinic.aisha);
    expect((await aisha.readResource('CarePlan', plan.id as string)).id).toBe(plan.id);
  });

  test('GET with ?subject= works as POST does', async () => {
    const plan = await chen.get<CarePlan>(`${applyUrl(chen)}?subject=${encodeURIComponent(aishaRef)}`);
    expect(plan.activity).toHaveLength(9);
  });

  test('bad input is a 400 OperationOutcome naming the problem', async () => {
    const missing = await rejectionOf(
      chen.post(applyUrl(chen), { resourceType: 'Parameters', parameter: [] }),
    );
    expect(outcomeOf(missing)[0]?.text).toMatch(/Missing required parameter 'subject'/);
    const notPatient = await rejectionOf(chen.post(applyUrl(chen), subject('Practitioner/abc')));
    expect(outcomeOf(notPatient)[0]?.text).toMatch(/must be a Patient reference/);
    const unknownParameter = await rejectionOf(
      chen.post(applyUrl(chen), {
        resourceType: 'Parameters',
        parameter: [{ name: 'encounterz', valueString: 'x' }],
      }),
    );
    expect(outcomeOf(unknownParameter)[0]?.text).toMatch(/Unsupported parameter 'encounterz'/);
    const notParameters = await rejectionOf(chen.post(applyUrl(chen), { resourceType: 'Patient' }));
    expect(outcomeOf(notParameters)[0]?.text).toMatch(/must be a FHIR Parameters resource/);
    // A patient without a due date: the weeks cannot be placed.
    const noPregnancy = await chen.createResource({ resourceType: 'Patient', name: [{ family: 'Nodate' }] });
    const noDue = await rejectionOf(chen.post(applyUrl(chen), subject(`Patient/${noPregnancy.id}`)));
    expect(outcomeOf(noDue)[0]?.text).toMatch(/has no estimated due date/);
    const badTiming = await chen.createResource<PlanDefinition>({
      resourceType: 'PlanDefinition',
      status: 'draft',
      action: [
        { title: 'Odd', timingRange: { low: { value: 3, code: 'mo', system: 'http://unitsofmeasure.org' } } },
      ],
    });
    const odd = await rejectionOf(chen.post(applyUrl(chen, badTiming.id), subject(aishaRef)));
    expect(outcomeOf(odd)[0]).toMatchObject({
      text: expect.stringMatching(/weeks \(wk\) or days \(d\)/),
      expression: ['PlanDefinition.action[0].timingRange.low'],
    });
  });

  test('SPEC §6 a patient applies no plan (she reads no templates); another project cannot reach Maria', async () => {
    const before = await chen.searchResources('CarePlan', { subject: aishaRef, _count: '100' });
    const hidden = await rejectionOf(maria.post(applyUrl(maria), subject(aishaRef)));
    expect(outcomeOf(hidden)[0]?.code).toBe('not-found');
    const own = await rejectionOf(maria.post(applyUrl(maria), subject(mariaRef)));
    expect(outcomeOf(own)[0]?.code).toBe('not-found');
    expect(await chen.searchResources('CarePlan', { subject: aishaRef, _count: '100' })).toHaveLength(
      before.length,
    );
    // Another project's own template, applied to Maria: her Patient is not found there.
    const otherProject = await signedInClient(clinic.server.baseUrl, clinic.otherAdmin);
    const theirs = await otherProject.createResource<PlanDefinition>({
      resourceType: 'PlanDefinition',
      status: 'active',
      action: [{ title: 'Visit' }],
    });
    const refused = await rejectionOf(
      otherProject.post(applyUrl(otherProject, theirs.id), subject(mariaRef)),
    );
    expect(outcomeOf(refused)[0]?.code).toBe('not-found');
    expect(await otherProject.searchResources('CarePlan', { _count: '100' })).toHaveLength(0);
    const anonymous = await fetch(`${clinic.server.fhirUrl}PlanDefinition/${template.id}/$apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: JSON.stringify(subject(mariaRef)),
    });
    expect(anonymous.status).toBe(401);
  });

  describe("a completed response to the action's questionnaire within its window counts as done", () => {
    const FORM_URL = 'https://bloom.example/fhir/Questionnaire/plan-window-check';
    let form: Questionnaire;
    let windowPlan: PlanDefinition;
    let patientRef: string;
    /** The action's window (weeks 28 to 32 of her pregnancy), as dates. */
    let start: string;
    let end: string;

    const respond = (
      client: MedplumClient,
      who: string,
      status: QuestionnaireResponse['status'],
      authored: string,
    ): Promise<QuestionnaireResponse> =>
      client.createResource<QuestionnaireResponse>({
        resourceType: 'QuestionnaireResponse',
        questionnaire: FORM_URL,
        status,
        subject: { reference: who },
        authored,
        item: [{ linkId: 'ok', answer: [{ valueBoolean: true }] }],
      });

    beforeAll(async () => {
      form = await chen.createResource<Questionnaire>({
        resourceType: 'Questionnaire',
        url: FORM_URL,
        status: 'active',
        item: [{ linkId: 'ok', type: 'boolean', text: 'Feeling well?' }],
      });
      windowPlan = await chen.createResource<PlanDefinition>({
        resourceType: 'PlanDefinition',
        status: 'active',
        action: [
          {
            title: 'Window check',
            definitionCanonical: form.url,
            timingRange: {
              low: { value: 28, unit: 'wk', system: 'http://unitsofmeasure.org', code: 'wk' },
              high: { value: 32, unit: 'wk', system: 'http://unitsofmeasure.org', code: 'wk' },
            },
          },
        ],
      });
      // A patient of 36 weeks today: the window (28 to 32 weeks) lies in the past.
      const patient = await chen.createResource<Patient>({
        resourceType: 'Patient',
        name: [{ given: ['Wendy'], family: 'Window' }],
      });
      patientRef = `Patient/${patient.id}`;
      const lastPeriod = Date.parse(`${isoDay(Date.now())}T00:00:00Z`) - 36 * 7 * DAY_MS;
      await chen.createResource<Observation>({
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '11778-8' }] },
        subject: { reference: patientRef },
        valueDateTime: isoDay(lastPeriod + 280 * DAY_MS),
      });
      start = isoDay(lastPeriod + 28 * 7 * DAY_MS);
      end = isoDay(lastPeriod + 32 * 7 * DAY_MS);
    });

    const step = async (): Promise<CarePlan['activity']> => {
      const plan = await chen.post<CarePlan>(applyUrl(chen, windowPlan.id), subject(patientRef));
      expect(plan.activity?.[0]?.detail?.scheduledPeriod).toEqual({ start, end });
      return plan.activity;
    };

    test('responses outside the window, in progress, or of another patient leave the step not done', async () => {
      const dayAfter = isoDay(Date.parse(`${end}T00:00:00Z`) + DAY_MS);
      const dayBefore = isoDay(Date.parse(`${start}T00:00:00Z`) - DAY_MS);
      await respond(chen, patientRef, 'completed', `${dayBefore}T12:00:00Z`);
      await respond(chen, patientRef, 'completed', `${dayAfter}T00:30:00Z`);
      await respond(chen, patientRef, 'in-progress', `${start}T12:00:00Z`);
      // Aisha's completed response inside the same dates belongs to her, not to this patient.
      await respond(chen, aishaRef, 'completed', `${start}T12:00:00Z`);
      const [activity] = (await step()) ?? [];
      expect(activity?.detail?.status).toBe('not-started');
      expect(activity?.outcomeReference).toBeUndefined();
    });

    test('SPEC §6 a patient cannot answer for another patient, so she cannot make that step done', async () => {
      const refused = await rejectionOf(respond(maria, patientRef, 'completed', `${start}T12:00:00Z`));
      expect(['forbidden', 'not-found']).toContain(outcomeOf(refused)[0]?.code);
      // Her own completed response to the same form, inside those dates, is hers alone.
      const own = await respond(maria, mariaRef, 'completed', `${start}T12:00:00Z`);
      expect(own.subject?.reference).toBe(mariaRef);
      const [activity] = (await step()) ?? [];
      expect(activity?.detail?.status).toBe('not-started');
      expect(activity?.outcomeReference).toBeUndefined();
    });

    test('a completed response on the last day of the window completes the step, linked to it', async () => {
      const inside = await respond(chen, patientRef, 'completed', `${end}T18:00:00Z`);
      const [activity] = (await step()) ?? [];
      expect(activity?.detail).toMatchObject({ status: 'completed', instantiatesCanonical: [FORM_URL] });
      expect(activity?.outcomeReference).toEqual([{ reference: `QuestionnaireResponse/${inside.id}` }]);
    });
  });
});
