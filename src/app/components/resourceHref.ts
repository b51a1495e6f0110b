// Link targets of SPEC §2 "Links": /{resourceType}/{id} for a resource, /{reference} for a reference;
// plain strings as given, with a leading slash added when missing.
export type LinkTarget =
  | string
  | { readonly resourceType: string; readonly id?: string | null }
  | { readonly reference?: string | null };

export function resourceHref(target: LinkTarget): string | undefined {
  if (typeof target === 'string') return target.startsWith('/') ? target : `/${target}`;
  if ('resourceType' in target) return target.id ? `/${target.resourceType}/${target.id}` : undefined;
  if ('reference' in target && target.reference) return `/${target.reference}`;
  return undefined;
}
