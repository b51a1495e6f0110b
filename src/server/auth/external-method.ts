// POST auth/method {email}: whether the email's domain signs in through an external identity
// provider (a DomainConfiguration, or the signing-in ClientApplication's identityProvider). The
// authorizeUrl answered is this server's auth/external/authorize: the app sends the browser there
// with a state carrying its login request (SPEC §4), and the server goes on to the provider with
// its own signed state and PKCE (external-login.ts).
import type { ServerServices } from '../services';
import { findIdentityProvider, readActiveClient } from './external-provider';
import type { Fields } from './request-fields';
import { optionalString, requiredEmail } from './request-fields';

export interface MethodResponse {
  domain?: string;
  authorizeUrl?: string;
}

export function externalAuthorizeUrl(deps: ServerServices): string {
  return `${deps.config.baseUrl}auth/external/authorize`;
}

export async function authMethod(deps: ServerServices, fields: Fields): Promise<MethodResponse> {
  const email = requiredEmail(fields);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const clientId = optionalString(fields, 'clientId', 64);
  const client = clientId ? await readActiveClient(deps.db, clientId) : undefined;
  const idp = await findIdentityProvider(deps.db, domain, client);
  return idp ? { domain, authorizeUrl: externalAuthorizeUrl(deps) } : {};
}
