// The hub's answer to GET /fhircast/STU3/{topic} (SPEC §7 Remote context sync).
import type { FhircastContextEntry } from '../../fhir/fhircast';

export interface FhircastCurrentContext {
  /** The anchor type of the open context ('Patient', 'DiagnosticReport'...), '' when none is open. */
  'context.type': string;
  'context.versionId'?: string;
  context: FhircastContextEntry[];
}
