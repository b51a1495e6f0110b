// The server's token signing key: an ES256 key pair created on first start and stored as a
// JsonWebKey resource (so every instance on one database signs with the same key), published
// without its private part at /.well-known/jwks.json.
import crypto from 'node:crypto';
import type { JsonWebKey as JsonWebKeyResource } from '@medplum/fhirtypes';
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import type { CryptoKey, JWK, JWTPayload, JWTVerifyResult } from 'jose';
import type { Database } from '../db';
import { Repository, systemContext } from '../repo';
import { findActiveJsonWebKeys, lockName } from '../repo/lookups';

export const SIGNING_ALGORITHM = 'ES256';

/** The public members of an EC or RSA JWK: never d, p, q, dp, dq, qi. */
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'kid', 'alg'] as const;

function publicJwk(key: JsonWebKeyResource): JWK {
  const jwk: JWK = { use: 'sig' };
  for (const member of PUBLIC_MEMBERS) {
    const value = member === 'kid' ? (key.kid ?? key.id) : key[member];
    if (value !== undefined) {
      jwk[member] = value;
    }
  }
  return jwk;
}

interface LoadedKeys {
  signingKey: CryptoKey;
  kid: string;
  publicKeys: JWK[];
  jwks: ReturnType<typeof createLocalJWKSet>;
}

/**
 * The keys are loaded (or the first one created) on first use, not at start-up, so a server whose
 * database is briefly unavailable still starts and answers its own errors.
 */
export class SigningKeys {
  private loaded: Promise<LoadedKeys> | undefined;

  constructor(
    private readonly db: Database,
    /** The issuer (`iss`) of every token: the API's public base URL. */
    readonly issuer: string,
  ) {}

  private load(): Promise<LoadedKeys> {
    this.loaded ??= loadKeys(this.db).catch((err: unknown) => {
      this.loaded = undefined; // try again on the next request
      throw err;
    });
    return this.loaded;
  }

  async publicKeys(): Promise<JWK[]> {
    return (await this.load()).publicKeys;
  }

  /** A signed JWT with iss, iat and exp (lifetime in seconds) added to the claims. */
  async sign(claims: JWTPayload, lifetimeSeconds: number): Promise<string> {
    const { signingKey, kid } = await this.load();
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeSeconds)
      .sign(signingKey);
  }

  /** Checks signature (one of our keys), algorithm, expiry and issuer; throws on any failure. */
  async verify(token: string): Promise<JWTVerifyResult> {
    const { jwks } = await this.load();
    return jwtVerify(token, jwks, { issuer: this.issuer, algorithms: [SIGNING_ALGORITHM] });
  }
}

/** Loads the active keys, creating the first one in a locked transaction (instances may start together). */
async function loadKeys(db: Database): Promise<LoadedKeys> {
  let keys = await findActiveJsonWebKeys(db);
  if (keys.length === 0) {
    keys = await db.transaction(async (tx) => {
      await lockName(tx, 'bloom:signing-key');
      const existing = await findActiveJsonWebKeys(tx);
      if (existing.length > 0) {
        return existing;
      }
      const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
      const jwk = await exportJWK(privateKey);
      const id = crypto.randomUUID();
      const resource: JsonWebKeyResource = {
        resourceType: 'JsonWebKey',
        active: true,
        alg: SIGNING_ALGORITHM,
        kty: jwk.kty,
        crv: jwk.crv,
        x: jwk.x,
        y: jwk.y,
        d: jwk.d,
        kid: id,
      };
      const stored = await new Repository(db, systemContext(), tx).createResource(resource, {
        assignedId: id,
      });
      return [stored];
    });
  }
  const current = keys[0];
  const signingKey = (await importJWK(
    { kty: current.kty, crv: current.crv, x: current.x, y: current.y, d: current.d },
    current.alg,
  )) as CryptoKey;
  const publicKeys = keys.map(publicJwk);
  return {
    signingKey,
    kid: current.kid ?? (current.id as string),
    publicKeys,
    jwks: createLocalJWKSet({ keys: publicKeys }),
  };
}
