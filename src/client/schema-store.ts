// Resource schemas loaded from the server (SPEC §7 "Schema load uses GraphQL queries
// StructureDefinitionList and SearchParameterList (count 100)"; SPEC §8 'Unknown data type: {name}',
// 'Failed loading StructureDefinition from bundle', 'No snapshot defined for StructureDefinition').
// The browser never loads the full FHIR definitions: each screen asks for the types it shows.
import type { ElementDefinition, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';

/** One resource or data type: its elements by path relative to the type ('name', 'contact.name'). */
export interface TypeSchema {
  name: string;
  url?: string;
  kind?: string;
  description?: string;
  elements: Record<string, ElementDefinition>;
}

/** SPEC §9 "Schema search parameters: 100". */
export const SCHEMA_SEARCH_PARAMETER_COUNT = 100;

/** The GraphQL document of a schema request: both lists in one round trip. */
export function schemaQuery(resourceType: string): string {
  const name = JSON.stringify(resourceType);
  return `{
  StructureDefinitionList(name: ${name}) {
    resourceType, name, kind, description, type, url,
    snapshot { element { id, path, definition, min, max, base { path, min, max }, contentReference,
      type { code, profile, targetProfile }, binding { strength, valueSet } } }
  }
  SearchParameterList(base: ${name}, _count: ${SCHEMA_SEARCH_PARAMETER_COUNT}) {
    base, code, type, expression, target
  }
}`;
}

/**
 * A GraphQL answer as FHIR JSON: GraphQL gives every selected field that has no value as null, FHIR
 * leaves it out (a null element would read as a value); `__typename`, which Apollo adds, is no FHIR.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const fields = Object.entries(value).filter(([key, field]) => field !== null && key !== '__typename');
  return Object.fromEntries(fields.map(([key, field]) => [key, withoutNulls(field)]));
}

function isStructureDefinition(value: unknown): value is StructureDefinition {
  const sd = value as Partial<StructureDefinition> | undefined;
  return sd?.resourceType === 'StructureDefinition' && typeof sd.name === 'string';
}

function isSearchParameter(value: unknown): value is SearchParameter {
  const param = value as Partial<SearchParameter> | undefined;
  return typeof param?.code === 'string' && Array.isArray(param.base);
}

export class SchemaStore {
  private readonly types = new Map<string, TypeSchema>();
  private readonly searchParameters = new Map<string, Map<string, SearchParameter>>();

  isLoaded(nameOrUrl: string): boolean {
    return this.types.has(nameOrUrl);
  }

  tryGetDataType(nameOrUrl: string): TypeSchema | undefined {
    return this.types.get(nameOrUrl);
  }

  getDataType(nameOrUrl: string): TypeSchema {
    const schema = this.types.get(nameOrUrl);
    if (!schema) {
      throw new Error(`Unknown data type: ${nameOrUrl}`);
    }
    return schema;
  }

  /** Indexes a type by its name, and a profile also by its URL. */
  indexStructureDefinition(sd: StructureDefinition): TypeSchema {
    const elements = sd.snapshot?.element;
    if (!elements || elements.length === 0) {
      throw new Error(`No snapshot defined for StructureDefinition '${sd.name ?? sd.url ?? ''}'`);
    }
    const root = sd.type ?? sd.name;
    const schema: TypeSchema = {
      name: sd.name as string,
      url: sd.url,
      kind: sd.kind,
      description: sd.description,
      elements: {},
    };
    for (const element of elements) {
      const path = element.path ?? '';
      if (path.startsWith(`${root}.`)) {
        schema.elements[path.slice(root.length + 1)] = element;
      } else if (path === root && element.definition && !schema.description) {
        schema.description = element.definition;
      }
    }
    // Found by URL; by name too, unless the name is a base type's that is already loaded (a
    // profile must not hide the type it constrains).
    if (sd.url) {
      this.types.set(sd.url, schema);
    }
    const baseType = !sd.type || sd.type === sd.name;
    if (baseType || !this.types.has(schema.name)) {
      this.types.set(schema.name, schema);
    }
    return schema;
  }

  /** Each entry must be a named StructureDefinition; the first is the one asked for. */
  indexStructureDefinitions(list: readonly (StructureDefinition | undefined)[] | undefined): TypeSchema[] {
    if (!Array.isArray(list)) {
      throw new Error('Failed loading StructureDefinition from bundle');
    }
    for (const sd of list) {
      if (sd?.resourceType !== 'StructureDefinition' || !sd.name) {
        throw new Error('Failed loading StructureDefinition from bundle');
      }
    }
    return (list as StructureDefinition[]).map((sd) => this.indexStructureDefinition(sd));
  }

  /**
   * Indexes one schema load as the StructureDefinitionList and SearchParameterList queries answer it
   * (GraphQL's nulls dropped) and returns the type of that name; 'Unknown data type' when none is.
   */
  indexSchemaLists(
    resourceType: string,
    structureDefinitions: unknown,
    searchParameters: unknown,
  ): TypeSchema {
    const definitions = withoutNulls(structureDefinitions);
    if (!Array.isArray(definitions) || !definitions.every(isStructureDefinition)) {
      throw new Error('Failed loading StructureDefinition from bundle');
    }
    const indexed = this.indexStructureDefinitions(definitions);
    const parameters = withoutNulls(searchParameters);
    if (Array.isArray(parameters)) this.indexSearchParameters(parameters.filter(isSearchParameter));
    return indexed.find((schema) => schema.name === resourceType) ?? this.getDataType(resourceType);
  }

  indexSearchParameters(list: readonly SearchParameter[]): void {
    for (const param of list) {
      for (const base of param.base ?? []) {
        let byCode = this.searchParameters.get(base);
        if (!byCode) {
          byCode = new Map();
          this.searchParameters.set(base, byCode);
        }
        byCode.set(param.code, param);
      }
    }
  }

  /** The search parameters loaded for a type, by code. */
  getSearchParameters(resourceType: string): Record<string, SearchParameter> {
    return Object.fromEntries(this.searchParameters.get(resourceType) ?? []);
  }
}
