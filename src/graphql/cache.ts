// Apollo's cache keyed like FHIR: one entry per resourceType/id, so a resource read by two screens
// (a Practitioner as a message sender and in a table) is stored once and updated everywhere. Data
// types (HumanName, Meta, Attachment...) carry no resourceType and stay inside their resource.
import { InMemoryCache } from '@apollo/client/cache';
import type { StoreObject } from '@apollo/client/cache';

/** `Patient/123` for an object with both fields; undefined keeps the object nested in its parent. */
export function resourceCacheId(object: Readonly<StoreObject>): string | undefined {
  const { resourceType, id } = object;
  return typeof resourceType === 'string' && typeof id === 'string' && id !== ''
    ? `${resourceType}/${id}`
    : undefined;
}

export function createResourceCache(): InMemoryCache {
  return new InMemoryCache({
    dataIdFromObject: resourceCacheId,
    typePolicies: {
      // The server's root types are named as Medplum names them (QueryType, MutationType).
      QueryType: { queryType: true },
      MutationType: { mutationType: true },
      // The search table asks a definition's snapshot with the elements' paths and types only, the
      // resource pages with all their fields: one snapshot object, whichever answer came last.
      StructureDefinition: { fields: { snapshot: { merge: true } } },
    },
  });
}
