// Which writes a FHIR Subscription is notified of: creates, updates and deletes by
// default; Medplum's subscription-supported-interaction extension narrows that. The engine hears
// "written" or "deleted" only, so 'create' and 'update' both mean "not deletes" here.
import type { Subscription } from '@medplum/fhirtypes';
import type { WriteEvent } from './event-log';

export const SUPPORTED_INTERACTION_URL =
  'https://medplum.com/fhir/StructureDefinition/subscription-supported-interaction';

export function interactionFilter(subscription: Subscription): (event: WriteEvent) => boolean {
  const codes = (subscription.extension ?? [])
    .filter((extension) => extension.url === SUPPORTED_INTERACTION_URL)
    .map((extension) => extension.valueCode);
  if (codes.length === 0) return () => true;
  const deletes = codes.includes('delete');
  const writes = codes.includes('create') || codes.includes('update');
  return (event) => (event.deleted ? deletes : writes);
}
