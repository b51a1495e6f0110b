// Her care plans as ResourceSearch answers them (FHIR JSON), checked, with each step's name and words in the
// active language where the plan carries translations (the template's, copied by $apply).
import type { CarePlan, CarePlanActivity } from '@medplum/fhirtypes';
import type { Locale } from '../i18n/locale';
import { extensionSibling, translatedText } from '../i18n/translatedText';

function isCarePlan(value: unknown): value is CarePlan {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resourceType?: unknown }).resourceType === 'CarePlan'
  );
}

function localizedActivity(activity: CarePlanActivity, locale: Locale, untitled: string): CarePlanActivity {
  const detail = activity.detail;
  if (!detail) return activity;
  const code = {
    ...detail.code,
    text: translatedText(extensionSibling(detail.code, 'text'), detail.code?.text, locale) ?? untitled,
  };
  const description = translatedText(extensionSibling(detail, 'description'), detail.description, locale);
  return { ...activity, detail: { ...detail, code, description } };
}

/** ResourceSearch's query for her active care plans, newest first (the schedule is the newest made from a template). */
export function activeCarePlansSearch(patient: string): string {
  return `patient=${encodeURIComponent(patient)}&status=active&_sort=-_lastUpdated&_count=10`;
}

/** The care plans, each step named in `locale` (`untitled` for a step without a name). */
export function localizedPlans(
  resources: readonly unknown[] | undefined,
  locale: Locale,
  untitled: string,
): CarePlan[] {
  return (resources ?? []).filter(isCarePlan).map((plan) => ({
    ...plan,
    activity: plan.activity?.map((activity) => localizedActivity(activity, locale, untitled)),
  }));
}
