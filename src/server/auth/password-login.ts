// POST auth/login: email and password to a Login (SPEC §7). A wrong email and a wrong password give
// the same message and take the same time, so nobody can learn which emails exist; failures are
// throttled per (account, address) pair and per address, and counted against the account's budget
// (throttle.ts, step-up.ts).
import type { Login } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { findUserByEmail } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { LoginResponse } from './logins';
import { assertMemberOfProject, buildLogin, checkClientId, nextLoginStep } from './logins';
import { getDecoyHash, verifyPassword } from './passwords';
import { requireEmailedLink } from './step-up';
import { pairKey } from './throttle';
import type { RequestInfo } from './registration';
import type { Fields } from './request-fields';
import { optionalString, readCodeChallenge, requiredEmail, requiredPassword } from './request-fields';

export const INVALID_CREDENTIALS = 'Email or password is invalid';

export async function passwordLogin(
  deps: ServerServices,
  fields: Fields,
  info: RequestInfo,
): Promise<LoginResponse> {
  const email = requiredEmail(fields);
  const password = requiredPassword(fields);
  const projectId = optionalString(fields, 'projectId', 64);
  const clientId = optionalString(fields, 'clientId', 64);
  const scope = optionalString(fields, 'scope', 1024);
  const nonce = optionalString(fields, 'nonce', 256);
  const challenge = readCodeChallenge(fields);

  const accountKey = email.toLowerCase();
  const addressKey = info.remoteAddress ?? 'unknown';
  const pair = pairKey(accountKey, addressKey);
  const { loginPair, loginAddress, loginAccount } = deps.throttles;
  // Only this (account, address) pair and this address wait: the account itself is never shut.
  await loginPair.check(deps.db, pair, 'login attempts for this account from your address');
  await loginAddress.check(deps.db, addressKey, 'login attempts from your address');

  const clientProject = await checkClientId(deps.db, clientId);
  // A project (named, or the client's) finds the User scoped to it before a server-wide one.
  const user = await findUserByEmail(
    deps.db,
    email,
    projectId === 'new' ? undefined : (projectId ?? clientProject),
  );
  const valid = await verifyPassword(password, user?.passwordHash ?? (await getDecoyHash()));
  if (!user || !valid) {
    await loginPair.recordFailure(deps.db, pair);
    await loginAddress.recordFailure(deps.db, addressKey);
    await loginAccount.recordFailure(deps.db, accountKey);
    throw new OperationOutcomeError(badRequest(INVALID_CREDENTIALS));
  }
  await loginPair.reset(deps.db, pair);
  // Past the account's budget the password alone is not enough: MFA (below) or an emailed link.
  if (!user.mfaEnrolled && (await loginAccount.exhausted(deps.db, accountKey))) {
    await requireEmailedLink(deps, user, 'passwords');
  }
  // Only after the password: the answer tells nothing to whoever does not know it.
  await assertMemberOfProject(deps.db, user, projectId);

  const login = await systemRepo(deps.db).createResource<Login>(
    buildLogin({ user, authMethod: 'password', projectId, clientId, scope, nonce, ...challenge, ...info }),
  );
  return nextLoginStep(deps.db, login, user);
}
