// Appends a fetched page of a FHIR connection to the pages already shown (Apollo fetchMore's
// updateQuery), keeping the newest total.
export interface ConnectionPage<Edge> {
  readonly count: number | null;
  readonly offset: number | null;
  readonly edges: ReadonlyArray<Edge | null> | null;
}

export function appendPage<Edge, Page extends ConnectionPage<Edge>>(
  previous: Page | null,
  next: Page | null,
): Page | null {
  if (!previous) return next;
  if (!next) return previous;
  return { ...next, offset: previous.offset, edges: [...(previous.edges ?? []), ...(next.edges ?? [])] };
}
