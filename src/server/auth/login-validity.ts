// A Login outlives neither its revocation nor its user's next password: tokens and codes of a
// sign-in that began before the password changed are refused (credentials.ts keeps the instant).
import type { Login, User } from '@medplum/fhirtypes';
import type { Database } from '../db';
import { systemRepo } from '../services';
import { issuedBeforeCredentialsChange } from './credentials';

/** True when the Login's user changed their password after this sign-in began. */
export async function loginPredatesCredentials(db: Database, login: Login): Promise<boolean> {
  const [type, id] = (login.user.reference ?? '').split('/');
  if (type !== 'User' || !id) {
    return false;
  }
  const user = await systemRepo(db)
    .readResource<User>('User', id)
    .catch(() => undefined);
  return !user || issuedBeforeCredentialsChange(user, login.authTime);
}
