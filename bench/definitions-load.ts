// Measures, in a fresh process, how long the FHIR definitions index takes to load: parsing
// src/fhir/generated/fhir-index.json and expanding the schemas validation needs for one resource;
// then a warm validation of a typical resource.
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

// A warm validation of a typical resource (a blood pressure reading with two components).
const bloodPressure = {
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '85354-9', display: 'Blood pressure' }] },
  subject: { reference: 'Patient/maria' },
  effectiveDateTime: '2026-01-01T10:00:00Z',
  component: [
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      valueQuantity: { value: 120, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
      valueQuantity: { value: 80, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
  ],
};
validateResource(bloodPressure);
const warmRuns = 1000;
const warmStarted = performance.now();
for (let i = 0; i < warmRuns; i++) validateResource(bloodPressure);
const warmValidationMs = (performance.now() - warmStarted) / warmRuns;

console.log(
  JSON.stringify({
    resourceTypes: resourceTypes.length,
    loadMs: loaded - started,
    firstValidationMs: firstValidation - loaded,
    warmValidationMs,
  }),
);
