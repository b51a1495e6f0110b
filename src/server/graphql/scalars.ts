// FHIR primitive types as GraphQL scalars, as Medplum maps them: numbers are Float (integer,
// positiveInt and unsignedInt included), id is ID, boolean is Boolean, everything else a String.
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLString } from 'graphql';
import type { GraphQLScalarType } from 'graphql';
import { getTypeSchema } from '../../fhir';

const SCALARS: Readonly<Record<string, GraphQLScalarType>> = {
  boolean: GraphQLBoolean,
  decimal: GraphQLFloat,
  integer: GraphQLFloat,
  integer64: GraphQLFloat,
  positiveInt: GraphQLFloat,
  unsignedInt: GraphQLFloat,
  id: GraphQLID,
  'http://hl7.org/fhirpath/System.Boolean': GraphQLBoolean,
  'http://hl7.org/fhirpath/System.Decimal': GraphQLFloat,
  'http://hl7.org/fhirpath/System.Integer': GraphQLFloat,
};

/**
 * The scalar of a FHIR type code, or undefined when the code names a structure (a datatype, a
 * nested element type or Resource). Unknown non-structure codes ('xhtml', System.String…) are strings.
 */
export function scalarOf(typeCode: string): GraphQLScalarType | undefined {
  const known = SCALARS[typeCode];
  if (known) {
    return known;
  }
  if (typeCode === 'Resource') {
    return undefined;
  }
  const schema = getTypeSchema(typeCode);
  return !schema || schema.kind === 'primitive-type' ? GraphQLString : undefined;
}
