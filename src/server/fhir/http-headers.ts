// HTTP header values for FHIR versioning: ETag, Last-Modified, If-Match, If-None-Match, Location.
import type { Resource } from '@medplum/fhirtypes';

export function etagOf(resource: Resource): string | undefined {
  return etagOfVersion(resource.meta?.versionId);
}

export function etagOfVersion(versionId: string | undefined): string | undefined {
  return versionId ? `W/"${versionId}"` : undefined;
}

export function lastModifiedOf(resource: Resource): string | undefined {
  return resource.meta?.lastUpdated ? new Date(resource.meta.lastUpdated).toUTCString() : undefined;
}

/** The version id inside an If-Match / ETag value: W/"v", "v" or v. */
export function parseVersionTag(value: string | undefined): string | undefined {
  if (!value) {
    return undefined;
  }
  const match = /^(?:W\/)?"?([^"]*)"?$/.exec(value.trim());
  return match?.[1] || undefined;
}

/** Whether an If-None-Match header (possibly a list, possibly '*') matches the resource's version. */
export function matchesIfNoneMatch(header: string | undefined, resource: Resource): boolean {
  return matchesIfNoneMatchVersion(header, resource.meta?.versionId);
}

export function matchesIfNoneMatchVersion(
  header: string | undefined,
  versionId: string | undefined,
): boolean {
  if (!header || !versionId) {
    return false;
  }
  return header.split(',').some((tag) => tag.trim() === '*' || parseVersionTag(tag) === versionId);
}

/** Absolute URL of one version: the Location of a create or update. */
export function versionUrl(fhirBase: string, resource: Resource): string {
  return `${fhirBase}${resource.resourceType}/${resource.id}/_history/${resource.meta?.versionId}`;
}
