// The clinic's EPDS scoring bot, run by a Subscription on each completed QuestionnaireResponse to
// the EPDS: it writes the score as an Observation (LOINC 99046-5, derivedFrom the response) and, on a
// total of 13 or more or any answer above 0 to item 10, a Flag on the patient and an urgent
// Communication to her general practitioner, which shows in the practitioner's inbox. The response
// also marks the EPDS step of her care plan done (plan-step.ts). Bundled with
// esbuild (scripts/build-epds-bot.ts) into one CommonJS file that runs in the bot sandbox. A retried
// run finds what an earlier attempt wrote (by derivedFrom and identifier) and writes it once.
import type {
  Communication,
  Flag,
  Observation,
  Patient,
  Questionnaire,
  QuestionnaireResponse,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import {
  EPDS_CODE_SYSTEM,
  EPDS_QUESTIONNAIRE_URL,
  EPDS_SELF_HARM_CODE,
  EPDS_TOTAL_LOINC,
  scoreEpds,
} from '../../../fhir/screening/epds';
import type { EpdsScore } from '../../../fhir/screening/epds';
import { observationCategory } from '../../../fhir/observation-category';
import { markPlanStepDone } from './plan-step';
import type { PlanStepClient } from './plan-step';

/** The part of the sandbox's FHIR client this bot uses. */
export interface EpdsBotClient extends PlanStepClient {
  readResource<T extends Resource>(resourceType: T['resourceType'], id: string): Promise<T>;
  searchOne<T extends Resource>(
    resourceType: T['resourceType'],
    query: Record<string, string>,
  ): Promise<T | undefined>;
  createResource<T extends Resource>(resource: T): Promise<T>;
}

/** Identifies the Flag and the Communication raised for one response. */
export const EPDS_ALERT_IDENTIFIER_SYSTEM = 'https://bloom.example/fhir/epds-alert';

const TOTAL_CODE = {
  system: 'http://loinc.org',
  code: EPDS_TOTAL_LOINC,
  display: 'Edinburgh Postnatal Depression Scale [EPDS] total score',
};

function answersEpds(response: QuestionnaireResponse): boolean {
  return (response.questionnaire ?? '').split('|')[0] === EPDS_QUESTIONNAIRE_URL;
}

function nameOf(patient: Patient): string {
  const name = patient.name?.[0];
  const parts = [...(name?.given ?? []), name?.family].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : 'The patient';
}

function scoreObservation(
  response: QuestionnaireResponse,
  subject: Reference,
  score: EpdsScore,
): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: observationCategory('survey'),
    code: { coding: [TOTAL_CODE], text: 'EPDS total score' },
    subject: subject as Observation['subject'],
    effectiveDateTime: response.authored ?? new Date().toISOString(),
    issued: new Date().toISOString(),
    valueInteger: score.total,
    interpretation: [
      {
        coding: [
          score.alert
            ? {
                system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
                code: 'A',
                display: 'Abnormal',
              }
            : {
                system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
                code: 'N',
                display: 'Normal',
              },
        ],
      },
    ],
    component: [
      {
        code: {
          coding: [
            {
              system: EPDS_CODE_SYSTEM,
              code: EPDS_SELF_HARM_CODE,
              display: 'EPDS item 10: thoughts of harming myself',
            },
          ],
        },
        valueInteger: score.selfHarm,
      },
    ],
    derivedFrom: [{ reference: `QuestionnaireResponse/${response.id}` }],
  };
}

function alertText(name: string, score: EpdsScore): string {
  const selfHarm =
    score.selfHarm > 0
      ? ` She answered item 10 (thoughts of harming herself) with a score of ${score.selfHarm}: please contact her now.`
      : ' Please contact her today.';
  return `${name}'s Edinburgh Postnatal Depression Scale total is ${score.total} (item 10: ${score.selfHarm}).${selfHarm}`;
}

async function findOrCreate<T extends Resource>(
  medplum: EpdsBotClient,
  resource: T,
  query: Record<string, string>,
): Promise<T> {
  return (await medplum.searchOne<T>(resource.resourceType, query)) ?? medplum.createResource<T>(resource);
}

export async function handler(medplum: EpdsBotClient, event: { input: unknown }): Promise<string> {
  const response = event.input as QuestionnaireResponse;
  if (
    response?.resourceType !== 'QuestionnaireResponse' ||
    response.status !== 'completed' ||
    !answersEpds(response)
  ) {
    return 'Not a completed EPDS response: nothing to score';
  }
  const subject = response.subject?.reference ?? '';
  if (!subject.startsWith('Patient/') || !response.id) {
    throw new Error('The EPDS response names no Patient as its subject');
  }
  const questionnaire = await medplum.searchOne<Questionnaire>('Questionnaire', {
    url: EPDS_QUESTIONNAIRE_URL,
  });
  if (!questionnaire) {
    throw new Error(`The EPDS Questionnaire ${EPDS_QUESTIONNAIRE_URL} is missing`);
  }
  const scoring = scoreEpds(questionnaire, response);
  if (!scoring.ok) {
    throw new Error(`The EPDS response cannot be scored: ${scoring.error}`);
  }
  const { score } = scoring;
  const responseRef = `QuestionnaireResponse/${response.id}`;
  const observation = await findOrCreate(medplum, scoreObservation(response, { reference: subject }, score), {
    'derived-from': responseRef,
    code: `http://loinc.org|${EPDS_TOTAL_LOINC}`,
  });
  const step = await markPlanStepDone(medplum, response, EPDS_QUESTIONNAIRE_URL);
  const stepNote = step ? `; ${step} done` : '';
  if (!score.alert) {
    return `EPDS total ${score.total}, item 10 ${score.selfHarm}: no alert${stepNote}`;
  }

  const patient = await medplum.readResource<Patient>('Patient', subject.slice('Patient/'.length));
  const name = nameOf(patient);
  const practitioner = patient.generalPractitioner?.find((gp) => gp.reference?.startsWith('Practitioner/'));
  const clinic = patient.managingOrganization;
  const identifier = { system: EPDS_ALERT_IDENTIFIER_SYSTEM, value: response.id };
  const byIdentifier = { identifier: `${identifier.system}|${identifier.value}` };
  const text = alertText(name, score);
  const flag = await findOrCreate<Flag>(
    medplum,
    {
      resourceType: 'Flag',
      identifier: [identifier],
      status: 'active',
      category: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/flag-category',
              code: 'clinical',
              display: 'Clinical',
            },
          ],
        },
      ],
      code: {
        coding: [TOTAL_CODE],
        text: `Positive EPDS screen: total ${score.total}, item 10 ${score.selfHarm}`,
      },
      subject: { reference: subject, display: name },
      period: { start: new Date().toISOString() },
      ...(clinic ? { author: clinic } : {}),
    },
    byIdentifier,
  );
  if (!practitioner) {
    return `EPDS total ${score.total}: Flag raised; the patient has no general practitioner to notify${stepNote}`;
  }
  await findOrCreate<Communication>(
    medplum,
    {
      resourceType: 'Communication',
      identifier: [identifier],
      status: 'completed',
      priority: 'urgent',
      category: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/communication-category',
              code: 'alert',
              display: 'Alert',
            },
          ],
        },
      ],
      topic: { text: `Mood screening alert: EPDS ${score.total}` },
      subject: { reference: subject, display: name },
      recipient: [practitioner],
      ...(clinic ? { sender: clinic } : {}),
      about: [
        { reference: responseRef },
        { reference: `Observation/${observation.id}` },
        { reference: `Flag/${flag.id}` },
      ],
      sent: new Date().toISOString(),
      payload: [{ contentString: text }],
    },
    byIdentifier,
  );
  return `EPDS total ${score.total}, item 10 ${score.selfHarm}: Flag and Communication raised${stepNote}`;
}
