// An external identity provider's userinfo endpoint on loopback (for token exchange, RFC 8693): it
// answers the user of each access token the test hands out, and 401 for any other token.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UserInfo {
  sub: string;
  email: string;
}

export interface UserInfoProvider {
  /** The URL for IdentityProvider.userInfoUrl. */
  readonly userInfoUrl: string;
  /** The provider's access tokens and whom they belong to. */
  readonly tokens: Map<string, UserInfo>;
  close(): Promise<void>;
}

export async function startUserInfoProvider(): Promise<UserInfoProvider> {
  const tokens = new Map<string, UserInfo>();
  const server = http.createServer((request, response) => {
    const info = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!info) {
      response.writeHead(401).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(info));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    userInfoUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/userinfo`,
    tokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
