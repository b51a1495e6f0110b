// 'Export as Transaction Bundle' (SPEC §2 Export): the rows as a FHIR transaction another server
// accepts. Each resource is created anew (POST) under a urn:uuid fullUrl; references between the
// exported resources are rewritten to those urns so they still point at each other after import.
// Server-managed meta (versionId, lastUpdated, project, author...) is dropped: the importer assigns it.
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

function newUuid(): string {
  return globalThis.crypto.randomUUID();
}

function rewriteReferences(value: unknown, urns: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, urns));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      key === 'reference' && typeof item === 'string' && urns.has(item)
        ? urns.get(item)
        : rewriteReferences(item, urns);
  }
  return copy;
}

export function resourcesToTransaction(resources: readonly Resource[], uuid: () => string = newUuid): Bundle {
  const urns = new Map<string, string>();
  for (const resource of resources) {
    if (resource.id) urns.set(`${resource.resourceType}/${resource.id}`, `urn:uuid:${uuid()}`);
  }
  const entry: BundleEntry[] = resources.map((resource) => {
    const { id, meta, ...rest } = resource;
    const body = rewriteReferences(rest, urns) as Resource;
    const fullUrl = id ? urns.get(`${resource.resourceType}/${id}`) : `urn:uuid:${uuid()}`;
    if (meta?.profile || meta?.tag || meta?.security) {
      body.meta = {
        ...(meta.profile ? { profile: meta.profile } : {}),
        ...(meta.tag ? { tag: meta.tag } : {}),
        ...(meta.security ? { security: meta.security } : {}),
      };
    }
    return { fullUrl, resource: body, request: { method: 'POST', url: resource.resourceType } };
  });
  return { resourceType: 'Bundle', type: 'transaction', entry };
}
