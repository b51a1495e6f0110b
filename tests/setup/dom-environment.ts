// jsdom plus Node's fetch classes. jest-environment-jsdom 30 has no Request/Response/Headers, and React
// Router's data routers build a Request for every navigation ("Request is not defined"). Node's Request only
// accepts Node's AbortSignal, so the abort classes come along. `fetch` itself is deliberately left out:
// unit tests mock it, so none of them can reach a network by accident.
import JSDOMEnvironment from 'jest-environment-jsdom';

export default class DomEnvironment extends JSDOMEnvironment {
  constructor(...args: ConstructorParameters<typeof JSDOMEnvironment>) {
    super(...args);
    Object.assign(this.global, { Request, Response, Headers, AbortController, AbortSignal, FormData });
  }
}
