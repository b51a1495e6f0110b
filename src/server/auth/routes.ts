// The /auth/* endpoints of SPEC §7 "Authentication", Medplum-compatible paths and payloads.
// Errors are OperationOutcomes (the app's error handler): 400 with the field as expression, 401, 429.
import type { Login, User } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { AuthState } from './authenticate';
import { requireAuth, unauthenticated } from './authenticate';
import { externalAuthorizeRedirect, externalCallback } from './external-login';
import type { Query } from './external-login';
import { authMethod } from './external-method';
import { googleLogin } from './google-login';
import { assertMfaDone, chooseMembership, grantCode, nextLoginStep, readPendingLogin } from './logins';
import { mfaDisable, mfaEnroll, mfaStatus, mfaVerify } from './mfa';
import { passwordLogin } from './password-login';
import { requestPasswordReset, setPassword } from './password-reset';
import { newPatient, newProject, newUser } from './registration';
import type { RequestInfo } from './registration';
import { readFields, requiredString } from './request-fields';
import { changePassword, sessionDetails } from './session';

export interface AuthRoutesOptions {
  deps: ServerServices;
}

function requestInfo(request: FastifyRequest): RequestInfo {
  const userAgent = request.headers['user-agent'];
  return {
    remoteAddress: addressOf(request),
    userAgent: typeof userAgent === 'string' ? userAgent : undefined,
  };
}

/** The client's address: the peer's, or X-Forwarded-For's when the peer is a TRUST_PROXY proxy. */
function addressOf(request: FastifyRequest): string {
  return request.ip;
}

function requireUser(auth: AuthState): User {
  if (!auth.user) {
    throw new OperationOutcomeError(unauthenticated);
  }
  return auth.user;
}

async function readLoginUser(deps: ServerServices, login: Login): Promise<User> {
  return systemRepo(deps.db).readResource<User>('User', login.user.reference?.split('/')[1] as string);
}

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { deps }) => {
  app.post('/method', async (request) => authMethod(deps, readFields(request.body)));
  app.get<{ Querystring: Query }>('/external/authorize', async (request, reply) =>
    reply.redirect(await externalAuthorizeRedirect(deps, request.query), 302),
  );
  app.get<{ Querystring: Query }>('/external', async (request, reply) =>
    reply.redirect(await externalCallback(deps, request.query, requestInfo(request)), 302),
  );

  app.post('/login', async (request) => passwordLogin(deps, readFields(request.body), requestInfo(request)));
  app.post('/google', async (request) => googleLogin(deps, readFields(request.body), requestInfo(request)));

  app.get<{ Params: { login: string } }>('/login/:login', async (request) => {
    const login = await readPendingLogin(deps.db, request.params.login);
    return nextLoginStep(deps.db, login, await readLoginUser(deps, login));
  });

  app.post('/profile', async (request) => {
    const fields = readFields(request.body);
    const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
    const user = await readLoginUser(deps, login);
    assertMfaDone(login, user);
    const membership = await chooseMembership(
      deps.db,
      login,
      requiredString(fields, 'profile', 'Profile', 64),
    );
    return grantCode(deps.db, login, membership);
  });

  app.post('/scope', async (request) => {
    const fields = readFields(request.body);
    const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
    const scope = requiredString(fields, 'scope', 'Scope', 1024);
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(scope)) {
      throw new OperationOutcomeError(badRequest('Scope must be a space-separated list', 'scope'));
    }
    const { resource } = await systemRepo(deps.db).updateResource<Login>(
      { ...login, scope },
      { ifMatch: login.meta?.versionId },
    );
    return nextLoginStep(deps.db, resource, await readLoginUser(deps, resource));
  });

  app.post('/mfa/verify', async (request) => mfaVerify(deps, readFields(request.body), addressOf(request)));
  app.get('/mfa/status', async (request) => mfaStatus(deps, requireUser(await requireAuth(deps, request))));
  app.post('/mfa/enroll', async (request) => {
    const user = requireUser(await requireAuth(deps, request));
    return mfaEnroll(deps, user, readFields(request.body ?? {}), addressOf(request));
  });
  app.post('/mfa/disable', async (request) => {
    const auth = await requireAuth(deps, request);
    requireUser(auth);
    await mfaDisable(deps, auth, readFields(request.body), addressOf(request));
    return {};
  });

  app.post('/newuser', async (request) => newUser(deps, readFields(request.body), requestInfo(request)));
  app.post('/newpatient', async (request) => newPatient(deps, readFields(request.body)));
  app.post('/newproject', async (request) => newProject(deps, readFields(request.body)));

  app.post('/resetpassword', async (request) => {
    await requestPasswordReset(deps, readFields(request.body));
    return {};
  });
  app.post('/setpassword', async (request) => {
    await setPassword(deps, readFields(request.body));
    return {};
  });

  app.get('/me', async (request) => sessionDetails(deps, await requireAuth(deps, request)));

  app.post('/changepassword', async (request) => {
    const user = requireUser(await requireAuth(deps, request));
    await changePassword(deps, user, readFields(request.body));
    return {};
  });
};
