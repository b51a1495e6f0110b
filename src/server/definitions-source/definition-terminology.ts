// The FHIR definitions' ValueSets and CodeSystems (FHIR, v2, v3 and Medplum's), read once on first
// use, for ValueSet $expand and the :in and :not-in search modifiers. No URL is defined in two of
// these files; were one, the later file would win (Medplum's over the base spec's).
import type { CodeSystem, ValueSet } from '@medplum/fhirtypes';
import { readDefinitionBundles, onFirstUse } from './definition-files';

const TERMINOLOGY_FILES = [
  'v2-tables.json',
  'v3-codesystems.json',
  'valuesets.json',
  'valuesets-medplum.json',
  'valuesets-medplum-generated.json',
];

export const loadDefinitionTerminology: () => Promise<(ValueSet | CodeSystem)[]> = onFirstUse(async () =>
  (await readDefinitionBundles(TERMINOLOGY_FILES)).filter(
    (resource): resource is ValueSet | CodeSystem =>
      resource.resourceType === 'ValueSet' || resource.resourceType === 'CodeSystem',
  ),
);
