// Every GraphQL document a screen test saw the app send must be one codegen generated (and CI
// validated against the schema snapshot): a document built at run time, or edited by hand, fails
// the test that sent it.
import { takeSentDocuments } from '../app/support/sentDocuments';
import { untypedDocuments } from '../graphql/support/typed-documents';

afterEach(() => {
  expect(untypedDocuments(takeSentDocuments())).toEqual([]);
});
