// Unit: the routing keys that spare an event from visiting every listener.
// A key must be a necessary condition of the match: every version the criteria match has it.
import type { Resource } from '@medplum/fhirtypes';
import { parseCriteria } from '../../../src/server/live/criteria';
import { matchesCriteria } from '../../../src/server/live/criteria-match';
import { eventRoutingKeys, routingKey } from '../../../src/server/live/routing-keys';
import { extractIndexRows } from '../../../src/server/search/extract-index-rows';

const target = (resource: Resource) => ({ resource, rows: extractIndexRows(resource) });

describe('live routing keys', () => {
  test('a single Type/id reference equality gives a key; OR values, bare ids, :not and tokens give none', () => {
    expect(routingKey(parseCriteria('Communication?status=completed&subject=Patient/1'))).toBe(
      'subject=Patient/1',
    );
    expect(routingKey(parseCriteria('Communication?subject=Patient/1,Patient/2'))).toBeUndefined();
    expect(routingKey(parseCriteria('Communication?subject=1'))).toBeUndefined();
    expect(routingKey(parseCriteria('Communication?subject:not=Patient/1'))).toBeUndefined();
    expect(routingKey(parseCriteria('Communication?status=completed'))).toBeUndefined();
  });

  test('every matching version carries the key of its criteria; another patient’s does not', () => {
    const criteria = parseCriteria('Communication?subject=Patient/1');
    const mine = target({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: 'Patient/1' },
    } as Resource);
    const other = target({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: 'Patient/2' },
    } as Resource);
    expect(matchesCriteria(criteria, mine)).toBe(true);
    expect(eventRoutingKeys(mine)).toContain(routingKey(criteria));
    expect(matchesCriteria(criteria, other)).toBe(false);
    expect(eventRoutingKeys(other)).not.toContain(routingKey(criteria));
  });
});
