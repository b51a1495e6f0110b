// Measures, in a fresh process, how long the FHIR definitions index takes to load: parsing
// src/fhir/generated/fhir-index.json and expanding the schemas validation needs for one resource.
import { performance } from 'node:perf_hooks';
import { getResourceTypes, getTypeSchema } from '../src/fhir/definitions';
import { validateResource } from '../src/fhir/validate';

const started = performance.now();
const resourceTypes = getResourceTypes();
const loaded = performance.now();
validateResource({
  resourceType: 'Patient',
  name: [{ given: ['Maria'], family: 'Garcia' }],
  birthDate: '1994-03-02',
});
const firstValidation = performance.now();
getTypeSchema('Observation');

console.log(
  JSON.stringify({
    resourceTypes: resourceTypes.length,
    loadMs: loaded - started,
    firstValidationMs: firstValidation - loaded,
  }),
);
