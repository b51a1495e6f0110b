// /oauth2/*: token (form-encoded grants), logout, userinfo and authorize (SPEC §7, §9 paths).
import type { ClientApplication, User } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { allOk } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { requireAuth } from '../auth/authenticate';
import { FHIR_JSON } from '../fhir/media-types';
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  jwtBearerGrant,
  refreshTokenGrant,
  revokeLogin,
} from './grants';
import { acceptFormBodies } from '../request-bodies';
import { OAuthError, registerOAuthErrorHandler } from './oauth-error';
import { TOKEN_EXCHANGE_GRANT, tokenExchangeGrant } from './token-exchange';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Token requests are small; anything bigger is not a token request. */
const FORM_BODY_LIMIT = 64 * 1024;

function formFields(body: unknown): Record<string, string> {
  if (!(body instanceof URLSearchParams)) {
    throw new OAuthError('invalid_request', 'Send the token request as application/x-www-form-urlencoded');
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of body) {
    if (key in fields) {
      // RFC 6749 §3.2: parameters must not be repeated.
      throw new OAuthError('invalid_request', `Repeated parameter ${key}`);
    }
    fields[key] = value;
  }
  return fields;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

export const oauthRoutes: FastifyPluginAsync<{ deps: ServerServices }> = async (app, { deps }) => {
  registerOAuthErrorHandler(app);
  // Token requests are forms (RFC 6749 §4.1.3); logout takes the JSON every route takes.
  acceptFormBodies(app, FORM_BODY_LIMIT);

  app.post('/token', async (request, reply) => {
    const form = formFields(request.body);
    const grantType = form.grant_type;
    noStore(reply);
    switch (grantType) {
      case 'authorization_code':
        return authorizationCodeGrant(deps, request, form);
      case 'refresh_token':
        return refreshTokenGrant(deps, request, form);
      case 'client_credentials':
        return clientCredentialsGrant(deps, request, form);
      case JWT_BEARER_GRANT:
        return jwtBearerGrant(deps, request, form);
      case TOKEN_EXCHANGE_GRANT:
        return tokenExchangeGrant(deps, request, form);
      case undefined:
      case '':
        throw new OAuthError('invalid_request', 'Missing grant_type');
      default:
        throw new OAuthError('unsupported_grant_type', `Unsupported grant_type '${grantType.slice(0, 100)}'`);
    }
  });

  app.post('/logout', async (request, reply) => {
    const auth = await requireAuth(deps, request);
    if (auth.login?.id) {
      await revokeLogin(deps, auth.login.id);
    }
    // As Medplum's server answers (MedplumClient.signOut reads no body, other clients may).
    return reply.type(FHIR_JSON).send(allOk);
  });

  const userinfo = async (request: Parameters<typeof requireAuth>[1]): Promise<Record<string, unknown>> => {
    const auth = await requireAuth(deps, request);
    const user: User | undefined = auth.user;
    const info: Record<string, unknown> = {
      sub: user?.id ?? auth.client?.id,
      profile: auth.profile.reference,
      fhirUser: auth.profile.reference,
    };
    if (user) {
      Object.assign(info, {
        name: `${user.firstName} ${user.lastName}`,
        given_name: user.firstName,
        family_name: user.lastName,
        email: user.email,
        email_verified: user.emailVerified ?? false,
      });
    }
    return info;
  };
  app.get('/userinfo', async (request) => userinfo(request));
  app.post('/userinfo', async (request) => userinfo(request));

  /**
   * The start of authorization code + PKCE for an app: checked here, then the browser goes to the
   * app's /signin with the same query; the app signs the user in (auth/login with clientId and
   * the code challenge) and redirects to redirect_uri with code and state.
   */
  app.get<{ Querystring: Record<string, string | undefined> }>('/authorize', async (request, reply) => {
    const query = request.query;
    const clientId = query.client_id;
    if (!clientId) {
      throw new OAuthError('invalid_request', 'Missing client_id');
    }
    const client = await systemRepo(deps.db)
      .readResource<ClientApplication>('ClientApplication', clientId)
      .catch(() => undefined);
    if (!client || client.status === 'off') {
      throw new OAuthError('invalid_request', 'Unknown client');
    }
    const redirectUri = query.redirect_uri;
    const registered = [...(client.redirectUris ?? []), ...(client.redirectUri ? [client.redirectUri] : [])];
    if (!redirectUri || !registered.includes(redirectUri)) {
      // Never redirect to an unregistered address (RFC 6749 §4.1.2.1): answer here instead.
      throw new OAuthError('invalid_request', 'redirect_uri is not registered for this client');
    }
    const redirectError = (error: string, description: string): FastifyReply => {
      const target = new URL(redirectUri);
      target.searchParams.set('error', error);
      target.searchParams.set('error_description', description);
      if (query.state) {
        target.searchParams.set('state', query.state);
      }
      return reply.redirect(target.href, 302);
    };
    if (query.response_type !== 'code') {
      return redirectError('unsupported_response_type', "response_type must be 'code'");
    }
    const pkceRequired = !client.secret || !client.pkceOptional;
    if (pkceRequired && !query.code_challenge) {
      return redirectError('invalid_request', 'code_challenge is required (PKCE)');
    }
    if (query.code_challenge && query.code_challenge_method !== 'S256') {
      return redirectError('invalid_request', "code_challenge_method must be 'S256'");
    }
    const appOrigin = deps.config.appOrigins[0] ?? deps.config.baseUrl.replace(/\/$/, '');
    const search = new URLSearchParams(
      Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    return reply.redirect(`${appOrigin}/signin?${search.toString()}`, 302);
  });
};
