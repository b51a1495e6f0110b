export { fhirRoutes } from './routes';
export type { FhirRoutesOptions } from './routes';
export { processBatch } from './batch';
export { buildCapabilityStatement } from './capability-statement';
export { registerErrorHandlers } from './errors';
export { FHIR_JSON } from '../media-types';
