// Which rows requests were just sent ahead of the table (./tablePrefetch): the table then takes their
// answer from Apollo's cache (or joins the request still in flight) instead of asking the server twice.
import type { ResourceListQueryVariables } from '../../../graphql';

/** A prefetched answer counts as fresh this long; after that the table asks again as usual. */
const FRESH_MS = 10_000;

const sent = new Map<string, number>();

function keyOf(variables: ResourceListQueryVariables): string {
  return `${variables.resourceType}?${variables.search ?? ''}`;
}

export function markPrefetched(variables: ResourceListQueryVariables, now = Date.now()): void {
  for (const [key, at] of sent) if (now - at > FRESH_MS) sent.delete(key);
  sent.set(keyOf(variables), now);
}

/** Whether these rows were asked for ahead of the table in the last few seconds. */
export function wasPrefetched(variables: ResourceListQueryVariables, now = Date.now()): boolean {
  const at = sent.get(keyOf(variables));
  return at !== undefined && now - at <= FRESH_MS;
}
