// Input types of the mutations, as Medplum names them: `PatientCreate` / `PatientUpdate`, nested
// structures `HumanNameCreate`, `PatientContactUpdate`… Contained resources (type Resource) are not
// offered: GraphQL input types have no unions.
import { GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString } from 'graphql';
import type { GraphQLInputFieldConfig, GraphQLInputFieldConfigMap, GraphQLInputType } from 'graphql';
import { getTypeSchema } from '../../fhir';
import { graphQLTypeName } from './naming';
import { scalarOf } from './scalars';

export type InputSuffix = 'Create' | 'Update';

export class InputTypes {
  private readonly types = new Map<string, GraphQLInputObjectType>();

  inputType(fhirType: string, suffix: InputSuffix): GraphQLInputObjectType {
    const key = `${fhirType}${suffix}`;
    let type = this.types.get(key);
    if (!type) {
      type = new GraphQLInputObjectType({
        name: graphQLTypeName(fhirType) + suffix,
        fields: () => this.fields(fhirType, suffix),
      });
      this.types.set(key, type);
    }
    return type;
  }

  private fields(fhirType: string, suffix: InputSuffix): GraphQLInputFieldConfigMap {
    const schema = getTypeSchema(fhirType);
    const fields: GraphQLInputFieldConfigMap = {};
    if (schema?.kind === 'resource') {
      fields.resourceType = { type: GraphQLString };
    }
    for (const [name, { element, type }] of schema?.properties ?? []) {
      if (type.code === 'Resource') {
        continue;
      }
      const itemType: GraphQLInputType = scalarOf(type.code) ?? this.inputType(type.code, suffix);
      const nullable = element.isArray ? new GraphQLList(new GraphQLNonNull(itemType)) : itemType;
      const required = element.min > 0 && !element.isChoice;
      const field: GraphQLInputFieldConfig = { type: required ? new GraphQLNonNull(nullable) : nullable };
      fields[name] = field;
    }
    return fields;
  }
}
