// A ClientApplication's own signing key and its JWKS served on loopback (the client's jwksUri), and
// assertions signed with it (RFC 7523): for the private_key_jwt and JWT bearer tests.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';

export interface ClientKeys {
  /** The JWKS URL to put in ClientApplication.jwksUri. */
  jwksUrl: string;
  /** The key published at jwksUrl. */
  privateKey: CryptoKey;
  /** A key nobody published: what a forger would sign with. */
  foreignKey: CryptoKey;
  close(): Promise<void>;
}

export async function startClientKeys(): Promise<ClientKeys> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { privateKey: foreignKey } = await generateKeyPair('ES256', { extractable: true });
  const { d: _private, ...publicJwk } = await exportJWK(privateKey);
  const body = JSON.stringify({ keys: [{ ...publicJwk, kid: 'client-key', alg: 'ES256', use: 'sig' }] });
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    privateKey,
    foreignKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface AssertionOptions {
  /** The token endpoint's URL (the audience). */
  audience: string;
  key: CryptoKey;
  /** Defaults to the issuer (a client authenticating itself). */
  subject?: string;
  /** Seconds from now; negative for an expired assertion. */
  expiresIn?: number;
  /** A fresh random id unless given; null leaves the claim out. */
  jti?: string | null;
}

export function signAssertion(issuer: string, options: AssertionOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jti = options.jti === undefined ? crypto.randomUUID() : options.jti;
  return new SignJWT(jti === null ? {} : { jti })
    .setProtectedHeader({ alg: 'ES256', kid: 'client-key' })
    .setIssuer(issuer)
    .setSubject(options.subject ?? issuer)
    .setAudience(options.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 120))
    .sign(options.key);
}
