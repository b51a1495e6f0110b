// Medplum's own SDK as the referee (SPEC §3 and §6): MedplumClient 5.2.13, unchanged, signed
// in as Maria, does what Medplum's patient portal does with the demo clinic: her care plan, the
// clinic's questionnaires and her answers, her insurance, the clinic's services; she answers a
// questionnaire about herself, and is refused one about Aisha and any of Aisha's records.
import type { MedplumClient } from '@medplum/core';
import type {
  Bundle,
  CarePlan,
  Coverage,
  HealthcareService,
  Questionnaire,
  QuestionnaireResponse,
  Resource,
} from '@medplum/fhirtypes';
import { call, startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { medplumClient, outcomeOf, rejectionOf } from './support/medplum-client';

const MOOD_SCREENING_URL = 'https://bloom.example/fhir/Questionnaire/pregnancy-mood-screening';

describe.each(databases())("Medplum's patient portal data, as Maria, on %s", (_engine, kind) => {
  let clinic: Clinic;
  let medplum: MedplumClient;
  let maria: string;
  let aisha: string;

  /** Resources of a search as Dr. Chen, who sees every patient's (raw HTTP, for the test's own checks). */
  async function asChen<T extends Resource>(query: string): Promise<T[]> {
    const response = await call<Bundle<T>>(clinic.server, 'GET', `fhir/R4/${query}`, clinic.chen);
    expect(response.status).toBe(200);
    return (response.body.entry ?? []).map((entry) => entry.resource as T);
  }

  /** A completed mood screening about `subject`, every item answered with the calmest answer. */
  async function moodScreening(subject: string): Promise<QuestionnaireResponse> {
    const [questionnaire] = await medplum.searchResources('Questionnaire', { url: MOOD_SCREENING_URL });
    return {
      resourceType: 'QuestionnaireResponse',
      questionnaire: questionnaire.url,
      status: 'completed',
      subject: { reference: subject },
      authored: new Date().toISOString(),
      item: (questionnaire.item ?? []).map((item) => ({
        linkId: item.linkId,
        text: item.text,
        answer: [{ valueCoding: item.answerOption?.find((o) => o.valueCoding?.code === '0')?.valueCoding }],
      })),
    };
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    medplum = await medplumClient(clinic.server.baseUrl);
    medplum.setAccessToken(clinic.maria.access_token);
    maria = clinic.maria.profile?.reference as string;
    aisha = clinic.aisha.profile?.reference as string;
    expect([maria, aisha]).toEqual([
      expect.stringMatching(/^Patient\//),
      expect.stringMatching(/^Patient\//),
    ]);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it("searchResources('CarePlan', {subject}) finds her active plans, and none of Aisha's", async () => {
    const plans = await medplum.searchResources('CarePlan', { subject: maria });
    const byTitle = [...plans].sort((a, b) => (a.title ?? '').localeCompare(b.title ?? ''));
    // The prenatal plan the portal shows, and the clinic's pregnancy template applied to her ($apply).
    expect(byTitle.map((p) => [p.subject?.reference, p.status, p.intent, p.title])).toEqual([
      [maria, 'active', 'plan', 'Pregnancy care plan'],
      [maria, 'active', 'plan', 'Prenatal care plan'],
    ]);
    const visits = byTitle[1].activity?.find((a) => a.detail?.kind === 'Appointment');
    const appointment = await medplum.readReference(visits?.outcomeReference?.[0] as { reference: string });
    expect(appointment.resourceType).toBe('Appointment');
    expect(await medplum.searchResources('CarePlan', { subject: aisha })).toHaveLength(0);
    expect((await medplum.searchResources('CarePlan')).map((p) => p.subject?.reference)).toEqual([
      maria,
      maria,
    ]);
  });

  it("searchResources('Questionnaire') finds the clinic's two forms, in no patient's compartment", async () => {
    const questionnaires = await medplum.searchResources('Questionnaire', { _sort: 'title' });
    expect(questionnaires.map((q) => [q.title, q.status, q.subjectType])).toEqual([
      ['Pregnancy intake', 'active', ['Patient']],
      ['Pregnancy mood screening', 'active', ['Patient']],
    ]);
    expect(questionnaires.every((q) => q.url && q.name)).toBe(true);
  });

  it("searchResources('QuestionnaireResponse', {subject}) finds her answers, each to a Questionnaire's url", async () => {
    const urls = (await medplum.searchResources('Questionnaire')).map((q) => q.url);
    const responses = await medplum.searchResources('QuestionnaireResponse', { subject: maria });
    expect(responses).toHaveLength(2);
    for (const response of responses) {
      expect(response.status).toBe('completed');
      expect(urls).toContain(response.questionnaire);
      const [questionnaire] = await medplum.searchResources('Questionnaire', {
        url: response.questionnaire as string,
      });
      expect(questionnaire.resourceType).toBe('Questionnaire');
    }
    expect(await medplum.searchResources('QuestionnaireResponse', { subject: aisha })).toHaveLength(0);
  });

  it("searchResources('Coverage', {beneficiary}) finds her insurance and its payor", async () => {
    const coverages = await medplum.searchResources('Coverage', { beneficiary: maria });
    expect(coverages.map((c) => [c.status, c.beneficiary.reference])).toEqual([['active', maria]]);
    const payor = await medplum.readReference(coverages[0].payor[0]);
    expect(payor).toMatchObject({ resourceType: 'Organization', name: 'Prairie Health Insurance' });
    expect(await medplum.searchResources('Coverage', { beneficiary: aisha })).toHaveLength(0);
  });

  it("searchResources('HealthcareService') finds the clinic's prenatal care, whose type finds the Schedule", async () => {
    const services = await medplum.searchResources('HealthcareService');
    expect(services).toHaveLength(1);
    const [service] = services;
    expect((await medplum.readReference(service.providedBy as { reference: string })).resourceType).toBe(
      'Organization',
    );
    const coding = service.type?.[0]?.coding?.[0];
    expect(coding).toMatchObject({ system: 'http://snomed.info/sct', code: '424525001' });
    const schedules = await medplum.searchResources('Schedule', {
      'service-type': `${coding?.system}|${coding?.code}`,
    });
    expect(schedules).toHaveLength(1);
    expect(schedules[0].serviceType?.[0]?.coding).toEqual(service.type?.[0]?.coding);
    // Medplum's link from a Schedule's service type to the HealthcareService ($find's service-type-reference).
    expect(schedules[0].serviceType?.[0]?.extension?.[0]?.valueReference?.reference).toBe(
      `HealthcareService/${service.id}`,
    );
  });

  it('creates a QuestionnaireResponse about herself (201), which she then finds', async () => {
    const created = await medplum.createResource(await moodScreening(maria));
    expect(created.id && created.meta?.versionId).toBeTruthy();
    expect(created.meta?.compartment).toEqual([{ reference: maria }]);
    const raw = await call(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
      body: await moodScreening(maria),
    });
    expect(raw.status).toBe(201);
    const mine = await medplum.searchResources('QuestionnaireResponse', { subject: maria });
    expect(mine.map((r) => r.id)).toEqual(expect.arrayContaining([created.id, raw.body.id]));
  });

  it('is refused a QuestionnaireResponse about Aisha, also when she names herself its author', async () => {
    const before = await asChen<QuestionnaireResponse>(`QuestionnaireResponse?subject=${aisha}`);
    for (const response of [
      await moodScreening(aisha),
      { ...(await moodScreening(aisha)), author: { reference: maria } },
    ]) {
      const err = await rejectionOf(medplum.createResource(response));
      expect(outcomeOf(err).map((issue) => issue.code)).toEqual(['forbidden']);
      const raw = await call(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
        body: response,
      });
      expect(raw.status).toBe(403);
    }
    const after = await asChen<QuestionnaireResponse>(`QuestionnaireResponse?subject=${aisha}`);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it("cannot read Aisha's CarePlan, Coverage or QuestionnaireResponse (404), nor write the clinic's forms", async () => {
    const [plan] = await asChen<CarePlan>(`CarePlan?subject=${aisha}`);
    const [coverage] = await asChen<Coverage>(`Coverage?beneficiary=${aisha}`);
    const [response] = await asChen<QuestionnaireResponse>(`QuestionnaireResponse?subject=${aisha}`);
    for (const resource of [plan, coverage, response]) {
      expect(resource?.id).toBeTruthy();
      const err = await rejectionOf(medplum.readResource(resource.resourceType, resource.id as string));
      expect(outcomeOf(err).map((issue) => issue.code)).toEqual(['not-found']);
    }
    const [questionnaire] = await medplum.searchResources('Questionnaire');
    const err = await rejectionOf(
      medplum.updateResource<Questionnaire>({ ...questionnaire, title: 'Changed by a patient' }),
    );
    expect(outcomeOf(err).map((issue) => issue.code)).toEqual(['forbidden']);
    const service = await rejectionOf(
      medplum.createResource<HealthcareService>({ resourceType: 'HealthcareService', name: 'Mine' }),
    );
    expect(outcomeOf(service).map((issue) => issue.code)).toEqual(['forbidden']);
  });
});
