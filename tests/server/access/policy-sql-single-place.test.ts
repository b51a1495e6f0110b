// The read side's access decision has one place (SPEC §6): filter-sql's visibleSql and
// visibleTypesCondition are policy-sql's conditions and nothing else, so a type the policy grants
// nothing of is refused by policy-sql's own 'false' (no second type check in filter-sql).
import type { AccessPolicy } from '@medplum/fhirtypes';
import { combinePolicies } from '../../../src/server/access/policy';
import type { RepositoryContext } from '../../../src/server/access/context';
import { filterConditions, visibleSql, visibleTypesCondition } from '../../../src/server/search/filter-sql';
import { policyConditions } from '../../../src/server/search/policy-sql';
import { SqlParams } from '../../../src/server/search/sql-params';

const PROJECT = '0a0a0a0a-0000-4000-8000-00000000000a';

function contextFor(policy: AccessPolicy): RepositoryContext {
  const profile = { reference: 'Practitioner/d1' };
  return {
    project: PROJECT,
    author: profile,
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile,
      membership: { reference: 'ProjectMembership/m1' },
      policy: combinePolicies([{ policy }], profile),
    },
  };
}

const context = contextFor({
  resourceType: 'AccessPolicy',
  resource: [
    { resourceType: 'Observation', criteria: 'Observation?status=final' },
    { resourceType: 'Patient' },
    { resourceType: 'Communication', interaction: ['history'] },
  ],
});

describe('SPEC §6 one place decides what a search may see', () => {
  test.each([
    ['Observation', 'search'],
    ['Patient', 'search'],
    ['Encounter', 'search'],
    ['Communication', 'search'],
    ['Communication', 'history'],
  ] as const)('SPEC §6 visibleSql of %s (%s) is exactly policy-sql policyConditions', (type, interaction) => {
    const ours = new SqlParams();
    const theirs = new SqlParams();
    const sql = visibleSql(context, type, 'r', ours, interaction);
    const expected = policyConditions(
      { params: theirs, context, valueSets: new Map(), depth: 0 },
      type,
      'r',
      interaction,
      filterConditions,
    );
    expect({ sql, values: ours.values }).toEqual({ sql: expected, values: theirs.values });
  });

  test('SPEC §6 an ungranted type is refused by the policy SQL itself, in one query and among several types', () => {
    expect(visibleSql(context, 'Encounter', 'r', new SqlParams())).toContain('false');
    expect(visibleSql(context, 'Communication', 'r', new SqlParams(), 'search')).toContain('false');
    // Granted for history only: history sees it (no condition beyond isolation), search does not.
    expect(visibleSql(context, 'Communication', 'r', new SqlParams(), 'history')).not.toContain('false');
    const params = new SqlParams();
    const several = visibleTypesCondition(
      { params, context, valueSets: new Map(), depth: 0 },
      ['Encounter', 'Patient'],
      'r',
    );
    expect(several.at(-1)).toMatch(/^r\.resource_type = ANY\(\$\d+::text\[\]\)$/);
    expect(params.values).toContainEqual(['Patient']);
    expect(JSON.stringify(params.values)).not.toContain('Encounter');
  });
});
