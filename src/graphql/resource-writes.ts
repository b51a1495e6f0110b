// One cache policy for REST writes: after the platform client creates, updates, patches or deletes
// a resource (its 'resourceChanged' event), Apollo forgets that resource and every list of its type
// (`{Type}List` and `{Type}Connection`, at the root and nested in other resources, and the search
// table's `ResourceSearch` pages of that type), so the screens that show them read again; no screen
// refetches after its own write.
import type { ApolloClient } from '@apollo/client';
import type { ApolloCache } from '@apollo/client/cache';
import type { ClientEventListener, ClientEventType, ResourceChangedEvent } from '../client/events';

export interface ResourceChangeSource {
  addEventListener(type: ClientEventType, listener: ClientEventListener): void;
  removeEventListener(type: ClientEventType, listener: ClientEventListener): void;
}

/** The field name of a store key: `ObservationList({"patient":"Patient/1"})` → `ObservationList`. */
function fieldNameOf(storeFieldName: string): string {
  return storeFieldName.split(/[(:]/, 1)[0];
}

/** The arguments of a store key: `ResourceSearch({"resourceType":"Patient"})` → `{ resourceType: 'Patient' }`. */
function argumentsOf(storeFieldName: string): Record<string, unknown> | undefined {
  const open = storeFieldName.indexOf('(');
  if (open < 0 || !storeFieldName.endsWith(')')) return undefined;
  try {
    const args: unknown = JSON.parse(storeFieldName.slice(open + 1, -1));
    return typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Drops the changed resource and its type's lists from `cache`, with one broadcast to the queries. */
export function evictChangedResource(cache: ApolloCache, change: Omit<ResourceChangedEvent, 'type'>): void {
  const { resourceType, id } = change;
  const lists = new Set([`${resourceType}List`, `${resourceType}Connection`]);
  cache.batch({
    update: (store) => {
      if (id) {
        const entity = store.identify({ __typename: resourceType, resourceType, id });
        if (entity) store.evict({ id: entity });
      }
      const held = store.extract() as Record<string, Record<string, unknown> | undefined>;
      for (const [entity, fields] of Object.entries(held)) {
        const storeNames = Object.keys(fields ?? {});
        for (const name of new Set(storeNames.map(fieldNameOf))) {
          if (lists.has(name)) store.evict({ id: entity, fieldName: name });
        }
        // Rows come back as JSON, not as cache entities: drop the pages of the changed type only.
        for (const storeName of storeNames) {
          if (fieldNameOf(storeName) !== 'ResourceSearch') continue;
          const args = argumentsOf(storeName);
          if (args?.resourceType === resourceType)
            store.evict({ id: entity, fieldName: 'ResourceSearch', args });
        }
      }
      store.gc();
    },
  });
}

/** Keeps `apollo` in step with the client's writes until the returned function is called. */
export function followResourceWrites(source: ResourceChangeSource, apollo: ApolloClient): () => void {
  const listener: ClientEventListener = (event) => {
    if (event.type === 'resourceChanged') evictChangedResource(apollo.cache, event);
  };
  source.addEventListener('resourceChanged', listener);
  return () => source.removeEventListener('resourceChanged', listener);
}
