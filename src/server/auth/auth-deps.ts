// What the auth and oauth plugins share: the database, configuration, signing keys and throttles.
import type { ServerConfig } from '../config';
import type { Database, Queryable } from '../db';
import { Repository, systemContext } from '../repo';
import type { Mailer } from './mailer';
import type { SigningKeys } from './signing-key';
import type { AuthThrottles } from './throttle';

export interface AuthDeps {
  db: Database;
  config: ServerConfig;
  keys: SigningKeys;
  throttles: AuthThrottles;
  mailer: Mailer;
}

/** The server's own unrestricted repository for auth bookkeeping (optionally inside a transaction). */
export function systemRepo(db: Database, tx?: Queryable): Repository {
  return new Repository(db, systemContext(), tx);
}
