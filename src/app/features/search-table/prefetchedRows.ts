// Which rows requests were just sent ahead of the table (./tablePrefetch): the table, which waits for
// that start to answer (pendingTableStart), then takes their answer from Apollo's cache instead of
// asking the server twice.
import type { ResourceListQueryVariables } from '../../../graphql';

/** A prefetched answer counts as fresh this long (a loaded machine may take seconds to show the table). */
const FRESH_MS = 60_000;

const sent = new Map<string, number>();

function keyOf(variables: ResourceListQueryVariables): string {
  return `${variables.resourceType}?${variables.search ?? ''}`;
}

export function markPrefetched(variables: ResourceListQueryVariables, now = Date.now()): void {
  for (const [key, at] of sent) if (now - at > FRESH_MS) sent.delete(key);
  sent.set(keyOf(variables), now);
}

/**
 * Whether these rows were asked for ahead of the table and not taken yet: the first table to ask takes
 * them, so a later visit (the back button) asks the server again.
 */
export function takePrefetched(variables: ResourceListQueryVariables, now = Date.now()): boolean {
  const key = keyOf(variables);
  const at = sent.get(key);
  sent.delete(key);
  return at !== undefined && now - at <= FRESH_MS;
}
