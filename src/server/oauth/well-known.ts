// Discovery documents: OpenID Connect, SMART App Launch, and the public signing keys.
import type { FastifyPluginAsync } from 'fastify';
import type { ServerServices } from '../services';
import { SIGNING_ALGORITHM } from '../auth/signing-key';

export const SUPPORTED_GRANTS = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:jwt-bearer',
  'urn:ietf:params:oauth:grant-type:token-exchange',
];

export const wellKnownRoutes: FastifyPluginAsync<{ deps: ServerServices }> = async (app, { deps }) => {
  const base = deps.config.baseUrl;
  const endpoints = {
    issuer: base,
    authorization_endpoint: `${base}oauth2/authorize`,
    token_endpoint: `${base}oauth2/token`,
    userinfo_endpoint: `${base}oauth2/userinfo`,
    end_session_endpoint: `${base}oauth2/logout`,
    jwks_uri: `${base}.well-known/jwks.json`,
  };
  const common = {
    ...endpoints,
    grant_types_supported: SUPPORTED_GRANTS,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256', 'ES384', 'RS256', 'RS384', 'PS256'],
    scopes_supported: ['openid', 'profile', 'email', 'offline', 'offline_access', 'fhirUser'],
  };

  app.get('/jwks.json', async () => ({ keys: await deps.keys.publicKeys() }));
  app.get('/openid-configuration', async () => ({
    ...common,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
  }));
  app.get('/smart-configuration', async () => ({
    ...common,
    capabilities: [
      'launch-standalone',
      'client-public',
      'client-confidential-symmetric',
      'client-confidential-asymmetric',
      'sso-openid-connect',
      'context-standalone-patient',
      'permission-offline',
      'permission-patient',
      'permission-user',
    ],
  }));
};
