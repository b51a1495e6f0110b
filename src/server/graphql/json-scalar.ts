// `JSON`: a value answered as the JSON it is (ResourceSearch's resources). Output only: no
// argument takes it, so a document or variable that tries is refused rather than guessed at.
import { GraphQLError, GraphQLScalarType } from 'graphql';

function outputOnly(): never {
  throw new GraphQLError('JSON is an output type: no argument takes it');
}

export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: outputOnly,
  parseLiteral: outputOnly,
});
