// The object types of the schema, one per FHIR resource type, datatype and nested element type,
// named as Medplum names them. Choice elements become one field per type ('valueQuantity'),
// Reference gets `resource` (the ResourceList union of every resource type), repeating elements
// take list arguments, and every resource type gets its reverse lookups (reverse-lookups.ts).
import type { Reference, Resource } from '@medplum/fhirtypes';
import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, GraphQLUnionType } from 'graphql';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLOutputType } from 'graphql';
import { getResourceTypes, getTypeSchema } from '../../fhir';
import type { PropertySchema } from '../../fhir';
import { resolveAttachmentUrl } from './attachment-url';
import type { BloomFieldExtensions, GraphQLContext } from './context';
import { listArgs, resolveListField } from './list-fields';
import { graphQLTypeName } from './naming';
import { referenceKey } from './reference-loader';
import { scalarOf } from './scalars';

export type FieldMap = GraphQLFieldConfigMap<Record<string, unknown>, GraphQLContext>;
type FieldConfig = GraphQLFieldConfig<Record<string, unknown>, GraphQLContext>;

export const RESOURCE_UNION = 'ResourceList';

/** Reads the referenced resource through the request's loader; contained and absolute references answer null. */
async function resolveReference(
  source: Record<string, unknown>,
  _args: unknown,
  context: GraphQLContext,
): Promise<Resource | null> {
  const key = referenceKey(source as Reference);
  return key ? context.loader.load(key) : null;
}

export class OutputTypes {
  private readonly types = new Map<string, GraphQLObjectType>();
  readonly resourceUnion: GraphQLUnionType;

  /** `addResourceFields` adds what only resource types have (reverse lookups), given the type name. */
  constructor(private readonly addResourceFields: (resourceType: string, fields: FieldMap) => void) {
    this.resourceUnion = new GraphQLUnionType({
      name: RESOURCE_UNION,
      types: () => getResourceTypes().map((type) => this.objectType(type)),
      resolveType: (value: Resource) => value.resourceType,
    });
  }

  /** The object type of a FHIR structure ('Patient', 'HumanName', 'Patient.contact'), built once. */
  objectType(fhirType: string): GraphQLObjectType {
    let type = this.types.get(fhirType);
    if (!type) {
      type = new GraphQLObjectType({
        name: graphQLTypeName(fhirType),
        fields: () => this.fields(fhirType),
      });
      this.types.set(fhirType, type);
    }
    return type;
  }

  private fields(fhirType: string): FieldMap {
    const schema = getTypeSchema(fhirType);
    const fields: FieldMap = {};
    const isResource = schema?.kind === 'resource';
    if (isResource) {
      fields.resourceType = { type: new GraphQLNonNull(GraphQLString) };
    }
    for (const [name, property] of schema?.properties ?? []) {
      fields[name] = this.propertyField(property);
    }
    if (fhirType === 'Reference') {
      const extensions: BloomFieldExtensions = { bloomCost: 'read' };
      fields.resource = { type: this.resourceUnion, resolve: resolveReference, extensions };
    }
    if (fhirType === 'Attachment' && fields.url) {
      fields.url = { ...fields.url, resolve: resolveAttachmentUrl };
    }
    if (isResource) {
      this.addResourceFields(fhirType, fields);
    }
    return fields;
  }

  private propertyField(property: PropertySchema): FieldConfig {
    const code = property.type.code;
    const scalar = scalarOf(code);
    const itemType: GraphQLOutputType =
      scalar ?? (code === 'Resource' ? this.resourceUnion : this.objectType(code));
    if (!property.element.isArray) {
      return { type: itemType };
    }
    const isStructure = !scalar && code !== 'Resource';
    return {
      type: new GraphQLList(itemType),
      args: listArgs(code, isStructure),
      resolve: resolveListField,
    };
  }
}
