// The ResourceList operation's variables for the table's request: its type, and its FHIR query
// string exactly as the REST URL would carry it (the server checks and runs it as that search).
import { formatSearchParameters, type SearchRequest } from '../../../fhir/search';
import type { ResourceListQueryVariables } from '../../../graphql';

export function resourceListVariables(
  request: SearchRequest,
): ResourceListQueryVariables & { search: string } {
  return { resourceType: request.resourceType, search: formatSearchParameters(request).join('&') };
}
