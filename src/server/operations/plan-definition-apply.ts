// PlanDefinition/{id}/$apply: turns a clinic's care-plan template into the subject's CarePlan (the
// FHIR R4 operation's answer; Medplum's server answers a RequestGroup of Tasks instead, with the same
// inputs). Input: `subject`, one Patient reference (query or Parameters body). Each action becomes an
// activity with the action's code, title and description; an action's `timingRange` in weeks is
// pregnancy time, counted from the first day of the last period (the patient's newest estimated due
// date, LOINC 11778-8, minus 40 weeks; without one, the last period she entered, LOINC 8665-2), so the
// activity gets its dates. An action's definitionCanonical (e.g. a Questionnaire to answer) becomes the
// activity's detail.instantiatesCanonical. Records of this pregnancy that already did an activity (a
// completed vaccine, a final report or a fulfilled appointment with the action's code, or a completed
// response to its questionnaire within its window) become its outcome, so a pregnancy registered late
// starts with its past steps done.
// Everything is read and written as the caller: a subject she cannot read is a 404, a CarePlan she
// may not create a 403.
import type {
  Appointment,
  CarePlan,
  CarePlanActivity,
  CarePlanActivityDetail,
  CodeableConcept,
  Coding,
  DiagnosticReport,
  Element,
  Immunization,
  Observation,
  Patient,
  PlanDefinition,
  PlanDefinitionAction,
  Quantity,
  QuestionnaireResponse,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { parseSearchRequest } from '../../fhir/search/parse';
import type { Database } from '../db';
import { ESTIMATED_DUE_DATE_CODE, LAST_PERIOD_CODE } from '../bots/care-plan/registration';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import type { InputParameter } from './operation-input';
import { readOperationInput, stringInput } from './operation-input';

const PARAMETERS: readonly InputParameter[] = [{ name: 'subject', kind: 'value', max: 1 }];

export { ESTIMATED_DUE_DATE_CODE, LAST_PERIOD_CODE } from '../bots/care-plan/registration';
const DAY_MS = 24 * 60 * 60 * 1000;
const PREGNANCY_DAYS = 280;
/** Days per unit of a weeks-or-days timing (UCUM codes). */
const UNIT_DAYS: Readonly<Record<string, number>> = { wk: 7, d: 1 };

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

export async function planDefinitionApplyOperation(
  db: Database,
  context: RepositoryContext,
  id: string,
  query: QueryParams,
  body: unknown,
): Promise<CarePlan> {
  return applyWithInput(new Repository(db, context), id, query, body);
}

/** $apply with its inputs as sent (query or Parameters body), as `repo`'s caller (also a bot's client). */
export async function applyWithInput(
  repo: Repository,
  id: string,
  query: QueryParams,
  body: unknown,
): Promise<CarePlan> {
  const input = readOperationInput('$apply', PARAMETERS, query, body ?? null);
  const subject = stringInput(input, 'subject');
  if (!subject) invalid("Missing required parameter 'subject' (a Patient reference)", 'subject');
  return applyPlanDefinition(repo, id, subject);
}

/** Creates the subject's CarePlan from PlanDefinition `id`, as `repo`'s caller. */
export async function applyPlanDefinition(repo: Repository, id: string, subject: string): Promise<CarePlan> {
  const patientId = /^Patient\/([A-Za-z0-9\-.]{1,64})$/.exec(subject)?.[1];
  if (!patientId)
    invalid(`Parameter 'subject' must be a Patient reference (Patient/{id}), got '${subject}'`, 'subject');
  const plan = await repo.readResource<PlanDefinition>('PlanDefinition', id);
  if (plan.status === 'retired') invalid(`PlanDefinition/${id} is retired and cannot be applied`);
  const patient = await repo.readResource<Patient>('Patient', patientId);
  const patientRef: Reference<Patient> = { reference: `Patient/${patientId}`, display: displayName(patient) };
  const actions = plan.action ?? [];
  actions.forEach((action, index) => checkAction(action, index));

  const lastPeriod = await lastPeriodStart(repo, patientRef.reference as string);
  if (!lastPeriod && actions.some((action) => action.timingRange)) {
    invalid(
      `Patient/${patientId} has no estimated due date (Observation ${ESTIMATED_DUE_DATE_CODE}) ` +
        `nor last period (${LAST_PERIOD_CODE}): ` +
        "the plan's weeks of pregnancy cannot be placed",
      'subject',
    );
  }
  const activity: CarePlanActivity[] = [];
  for (const action of actions) {
    activity.push(await activityFor(repo, action, patientRef.reference as string, lastPeriod));
  }
  const dueDate = lastPeriod ? isoDate(lastPeriod + PREGNANCY_DAYS * DAY_MS) : undefined;
  // JSON drops the absent (undefined) fields, which the validator refuses as values.
  const carePlan = JSON.parse(
    JSON.stringify({
      resourceType: 'CarePlan',
      status: 'active',
      intent: 'plan',
      instantiatesCanonical: [plan.url ?? `PlanDefinition/${id}`],
      title: plan.title ?? plan.name,
      description: plan.description,
      subject: patientRef,
      period: lastPeriod ? { start: isoDate(lastPeriod), end: dueDate } : undefined,
      created: new Date().toISOString(),
      activity,
    }),
  ) as CarePlan;
  return repo.createResource<CarePlan>(carePlan);
}

function displayName(patient: Patient): string | undefined {
  const name = patient.name?.[0];
  const text = name?.text ?? [...(name?.given ?? []), name?.family].filter(Boolean).join(' ');
  return text || undefined;
}

function checkAction(action: PlanDefinitionAction, index: number): void {
  const path = `PlanDefinition.action[${index}]`;
  if (!action.title && !action.code?.length) invalid('Each action needs a title or a code', path);
  if (action.action?.length) invalid('Nested actions are not supported by $apply here', `${path}.action`);
  if (action.definitionCanonical !== undefined && !/^\S+$/.test(action.definitionCanonical)) {
    invalid('definitionCanonical must be a canonical URL', `${path}.definitionCanonical`);
  }
  const range = action.timingRange;
  if (!range) return;
  const low = weeksOrDays(range.low, `${path}.timingRange.low`);
  const high = weeksOrDays(range.high, `${path}.timingRange.high`);
  if (low === undefined && high === undefined)
    invalid('timingRange needs a low or a high', `${path}.timingRange`);
  if (low !== undefined && high !== undefined && low > high) {
    invalid('timingRange.low lies after timingRange.high', `${path}.timingRange`);
  }
}

/** A timing bound in days of pregnancy; weeks ('wk') or days ('d') only. */
function weeksOrDays(quantity: Quantity | undefined, path: string): number | undefined {
  if (!quantity) return undefined;
  const perUnit = UNIT_DAYS[quantity.code ?? ''];
  if (perUnit === undefined || typeof quantity.value !== 'number' || quantity.value < 0) {
    invalid('A timing bound must be a non-negative quantity in weeks (wk) or days (d)', path);
  }
  return Math.round(quantity.value * perUnit);
}

/**
 * The first day of the last period (ms): from the newest estimated due date (the clinic's dating),
 * else the newest last period she entered (as the app's screens do); undefined without either.
 */
async function lastPeriodStart(repo: Repository, patient: string): Promise<number | undefined> {
  const due = await newestDate(repo, patient, ESTIMATED_DUE_DATE_CODE);
  if (due !== undefined) return due - PREGNANCY_DAYS * DAY_MS;
  return newestDate(repo, patient, LAST_PERIOD_CODE);
}

async function newestDate(repo: Repository, patient: string, code: string): Promise<number | undefined> {
  const { resources } = await repo.search<Observation>(
    parseSearchRequest(
      `Observation?subject=${patient}&code=${code}&status=final,amended,corrected&_sort=-date&_count=1`,
    ),
  );
  const value = resources[0]?.valueDateTime;
  if (!value) return undefined;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(ms) ? undefined : ms;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

async function activityFor(
  repo: Repository,
  action: PlanDefinitionAction,
  patient: string,
  lastPeriod: number | undefined,
): Promise<CarePlanActivity> {
  // The texts' translations (their `_field` siblings) come along: a code without text takes the title's.
  const translations = action as PlanDefinitionAction & { _title?: Element; _description?: Element };
  const first = action.code?.[0];
  const code: CodeableConcept = first
    ? { ...first, text: first.text ?? action.title, ...(first.text ? {} : { _text: translations._title }) }
    : { text: action.title, _text: translations._title };
  const range = action.timingRange;
  const low = weeksOrDays(range?.low, '');
  const high = weeksOrDays(range?.high, '');
  const at = (days: number | undefined) =>
    lastPeriod !== undefined && days !== undefined ? isoDate(lastPeriod + days * DAY_MS) : undefined;
  const outcomes =
    lastPeriod !== undefined
      ? [
          ...(await completedRecords(repo, patient, codings(action), isoDate(lastPeriod))),
          ...(await answeredInWindow(repo, patient, action.definitionCanonical, at(low), at(high))),
        ]
      : [];
  return {
    outcomeReference: outcomes.length ? outcomes : undefined,
    detail: {
      instantiatesCanonical: action.definitionCanonical ? [action.definitionCanonical] : undefined,
      code,
      status: outcomes.length ? 'completed' : 'not-started',
      description: action.description,
      _description: translations._description,
      scheduledPeriod: range ? { start: at(low), end: at(high) } : undefined,
    } as CarePlanActivityDetail & { _description?: Element },
  };
}

function codings(action: PlanDefinitionAction): Coding[] {
  return (action.code ?? []).flatMap((concept) => concept.coding ?? []).filter((c) => c.system && c.code);
}

/** Records of this pregnancy (dated on or after `since`) that did an activity with one of `codes`. */
async function completedRecords(
  repo: Repository,
  patient: string,
  codes: Coding[],
  since: string,
): Promise<Reference[]> {
  if (codes.length === 0) return [];
  const tokens = codes.map((c) => `${c.system}|${c.code}`).join(',');
  const searches = [
    `Immunization?patient=${patient}&vaccine-code=${tokens}&status=completed&date=ge${since}`,
    `DiagnosticReport?subject=${patient}&code=${tokens}&status=final,amended,corrected&date=ge${since}`,
    `Appointment?patient=${patient}&reason-code=${tokens}&status=fulfilled&date=ge${since}`,
  ];
  const found: Reference[] = [];
  for (const search of searches) {
    const { resources } = await repo.search<Immunization | DiagnosticReport | Appointment>(
      parseSearchRequest(`${search}&_count=5`),
    );
    found.push(...resources.map((resource) => referenceTo(resource)));
  }
  return found;
}

/** Completed responses to the action's questionnaire authored within its window (both ends needed). */
async function answeredInWindow(
  repo: Repository,
  patient: string,
  canonical: string | undefined,
  start: string | undefined,
  end: string | undefined,
): Promise<Reference[]> {
  if (!canonical || !start || !end) return [];
  const { resources } = await repo.search<QuestionnaireResponse>(
    parseSearchRequest(
      `QuestionnaireResponse?subject=${patient}&questionnaire=${encodeURIComponent(canonical)}` +
        `&status=completed&authored=ge${start}&authored=le${end}T23:59:59Z&_count=5`,
    ),
  );
  return resources.map((resource) => referenceTo(resource));
}

function referenceTo(resource: Resource): Reference {
  return { reference: `${resource.resourceType}/${resource.id}` };
}
