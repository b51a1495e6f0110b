// The generic table's typed rows (operations/ResourceList.graphql): one aliased connection per table
// type under @include; these helpers set the one flag and read that type's page, so
// `resourceListPage(data, 'Observation').rows` is typed as the Observation rows the operation selects.
import type { ResourceListQuery, ResourceListQueryVariables } from './generated/operations';

/** The resource types ResourceList.graphql has a block for (tsc refuses a name without one). */
export const RESOURCE_LIST_TYPES = [
  'Patient',
  'Practitioner',
  'Observation',
  'DiagnosticReport',
  'Communication',
  'MedicationRequest',
  'Immunization',
  'Appointment',
] as const satisfies readonly (keyof ResourceListQuery & keyof ResourceListQueryVariables)[];

export type ResourceListType = (typeof RESOURCE_LIST_TYPES)[number];

type Connection<T extends ResourceListType> = NonNullable<ResourceListQuery[T]>;
export type ResourceListRow<T extends ResourceListType> = NonNullable<
  NonNullable<NonNullable<Connection<T>['edges']>[number]>['resource']
>;

export interface ResourceListPageRequest {
  count?: number;
  offset?: number;
  /** FHIR _sort, e.g. '-_lastUpdated' or 'name,-birthdate'. */
  sort?: string;
}

export function isResourceListType(value: string): value is ResourceListType {
  return (RESOURCE_LIST_TYPES as readonly string[]).includes(value);
}

export function resourceListVariables(
  resourceType: ResourceListType,
  page: ResourceListPageRequest = {},
): ResourceListQueryVariables {
  return { ...page, [resourceType]: true };
}

export interface ResourceListPage<T extends ResourceListType> {
  rows: ResourceListRow<T>[];
  /** The total the server counted (SPEC §2 'x-y of total'); undefined when it gave none. */
  total: number | undefined;
  offset: number;
}

export function resourceListPage<T extends ResourceListType>(
  data: ResourceListQuery | undefined,
  resourceType: T,
): ResourceListPage<T> {
  const connection = data?.[resourceType] as Connection<T> | null | undefined;
  const rows: ResourceListRow<T>[] = [];
  for (const edge of connection?.edges ?? []) {
    if (edge?.resource) {
      rows.push(edge.resource as ResourceListRow<T>);
    }
  }
  return { rows, total: connection?.count ?? undefined, offset: connection?.offset ?? 0 };
}
