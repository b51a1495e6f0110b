// Routes: /:resourceType is the search table, and static routes keep winning over it
// (react-router ranks static segments above dynamic ones).
import { matchRoutes } from 'react-router-dom';
import { appRoutes } from '../../../../src/app/routes';

function leafPath(pathname: string): string | undefined {
  const matches = matchRoutes(appRoutes, pathname) ?? [];
  return matches
    .map((match) => match.route.path)
    .filter(Boolean)
    .pop();
}

describe('issue #9 /:resourceType route (SPEC §2)', () => {
  it.each(['/Observation', '/Patient', '/NoSuchType', '/lowercase'])('%s goes to the table route', (path) => {
    expect(leafPath(path)).toBe(':resourceType');
  });

  it.each([
    ['/signout', 'signout'],
    ['/signin', 'signin'],
    ['/register', 'register'],
    ['/health-record', 'health-record'],
    ['/account', 'account'],
    ['/Observation/abc', 'Observation/:observationId'],
  ])('static route %s still wins', (path, expected) => {
    expect(leafPath(path)).toBe(expected);
  });
});
