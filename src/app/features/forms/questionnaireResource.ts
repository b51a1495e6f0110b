// ResourceSearch answers resources as JSON of any type: these check that one is a Questionnaire
// before a screen reads it as one.
import type { Questionnaire } from '@medplum/fhirtypes';

export function isQuestionnaire(resource: unknown): resource is Questionnaire {
  return (
    typeof resource === 'object' &&
    resource !== null &&
    (resource as { resourceType?: unknown }).resourceType === 'Questionnaire'
  );
}

/** The first resource ResourceSearch answered, when it is a Questionnaire. */
export function questionnaireOf(resources: readonly unknown[] | undefined): Questionnaire | undefined {
  const [resource] = resources ?? [];
  return isQuestionnaire(resource) ? resource : undefined;
}
