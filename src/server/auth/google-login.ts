// POST auth/google (SPEC §7): sign in with a Google ID token. Its signature is checked against
// Google's keys (GOOGLE_JWKS_URL, so tests serve their own on loopback), its audience must be one
// of GOOGLE_CLIENT_IDS, and the user is found by the verified email (created when createUser asks).
import type { Login, User } from '@medplum/fhirtypes';
import { jwtVerify } from 'jose';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { findUserByEmail, lockName } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { LoginResponse } from './logins';
import { buildLogin, checkClientId, nextLoginStep } from './logins';
import type { RequestInfo } from './registration';
import { remoteKeySet } from './remote-jwks';
import type { Fields } from './request-fields';
import {
  fieldError,
  optionalBoolean,
  optionalString,
  readCodeChallenge,
  requiredString,
} from './request-fields';

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

interface GoogleClaims {
  email?: unknown;
  email_verified?: unknown;
  given_name?: unknown;
  family_name?: unknown;
}

export async function googleLogin(
  deps: ServerServices,
  fields: Fields,
  info: RequestInfo,
): Promise<LoginResponse> {
  const googleClientId = requiredString(fields, 'googleClientId', 'Google client id');
  const credential = requiredString(fields, 'googleCredential', 'Google credential', 4096);
  const createUser = optionalBoolean(fields, 'createUser') ?? false;
  const projectId = optionalString(fields, 'projectId', 64);
  const clientId = optionalString(fields, 'clientId', 64);
  const scope = optionalString(fields, 'scope', 1024);
  const challenge = readCodeChallenge(fields);
  if (!deps.config.googleClientIds.includes(googleClientId)) {
    throw fieldError('Google sign-in is not enabled for this client id', 'googleClientId');
  }
  await checkClientId(deps.db, clientId);

  let claims: GoogleClaims;
  try {
    claims = (
      await jwtVerify(credential, remoteKeySet(deps.config.googleJwksUrl), {
        issuer: GOOGLE_ISSUERS,
        audience: googleClientId,
      })
    ).payload as GoogleClaims;
  } catch {
    throw fieldError('Invalid Google credential', 'googleCredential');
  }
  if (typeof claims.email !== 'string' || claims.email_verified !== true) {
    throw fieldError('The Google account has no verified email', 'googleCredential');
  }
  const email = claims.email;

  const { user, login } = await deps.db.transaction(async (tx) => {
    await lockName(tx, `bloom:user-email:${email.toLowerCase()}`);
    const repo = systemRepo(deps.db, tx);
    let found = await findUserByEmail(tx, email);
    if (!found) {
      if (!createUser) {
        throw new OperationOutcomeError(badRequest('User not found'));
      }
      found = await repo.createResource<User>({
        resourceType: 'User',
        firstName: typeof claims.given_name === 'string' && claims.given_name ? claims.given_name : email,
        lastName: typeof claims.family_name === 'string' && claims.family_name ? claims.family_name : '-',
        email,
        emailVerified: true,
      });
    }
    const created = await repo.createResource<Login>(
      buildLogin({ user: found, authMethod: 'google', projectId, clientId, scope, ...challenge, ...info }),
    );
    return { user: found, login: created };
  });
  return nextLoginStep(deps.db, login, user);
}
