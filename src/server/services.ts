// The services the server builds once (app.ts) and hands to every plugin that needs more than the
// database: configuration, the signing keys (tokens, signed URLs), the sign-in throttles and the
// mailer.
import type { ServerConfig } from './config';
import type { Database, Queryable } from './db';
import { Repository, systemContext } from './repo';
import type { Mailer } from './auth/mailer';
import type { SigningKeys } from './auth/signing-key';
import type { AuthThrottles } from './auth/throttle';

export interface ServerServices {
  db: Database;
  config: ServerConfig;
  /** Signs and verifies access tokens, binding tokens and signed Binary URLs; shared by every instance. */
  keys: SigningKeys;
  /** Failed password and MFA attempts per account and address. */
  throttles: AuthThrottles;
  /** Sends invitations, password resets and $send-email. */
  mailer: Mailer;
}

/** The server's own unrestricted repository for bookkeeping (optionally inside a transaction). */
export function systemRepo(db: Database, tx?: Queryable): Repository {
  return new Repository(db, systemContext(), tx);
}
