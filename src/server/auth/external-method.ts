// POST auth/method {email}: whether the email's domain signs in through an external identity
// provider (a DomainConfiguration, or the signing-in ClientApplication's identityProvider).
import type { ClientApplication } from '@medplum/fhirtypes';
import type { Database } from '../db';
import { findDomainConfiguration } from '../repo/lookups';
import { systemRepo } from './auth-deps';
import type { Fields } from './request-fields';
import { optionalString, requiredEmail } from './request-fields';

export interface MethodResponse {
  domain?: string;
  authorizeUrl?: string;
}

export async function authMethod(db: Database, fields: Fields): Promise<MethodResponse> {
  const email = requiredEmail(fields);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const config = await findDomainConfiguration(db, domain);
  if (config?.identityProvider?.authorizeUrl) {
    return { domain, authorizeUrl: config.identityProvider.authorizeUrl };
  }
  const clientId = optionalString(fields, 'clientId', 64);
  if (clientId) {
    const client = await systemRepo(db)
      .readResource<ClientApplication>('ClientApplication', clientId)
      .catch(() => undefined);
    if (client?.identityProvider?.authorizeUrl) {
      return { domain, authorizeUrl: client.identityProvider.authorizeUrl };
    }
  }
  return {};
}
