// A first line of defence for the platform's own resource types on the FHIR API, until the
// Repository enforces access control on every path: a token
// must never reach a signing key, a password hash or a refresh secret, and only a project admin
// may touch memberships, clients, access policies or the project itself (a patient who could write
// a ProjectMembership could make themselves admin).
import type { FastifyRequest } from 'fastify';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../fhir';
import type { AccessContext } from '../repo';

/** Server secrets: Login (refresh secrets, codes), User (password hashes), keys, reset secrets. */
const SUPER_ADMIN_ONLY = new Set(['JsonWebKey', 'Login', 'User', 'UserSecurityRequest']);
/** The project's configuration and who may sign in to it. */
const PROJECT_ADMIN_ONLY = new Set([
  'AccessPolicy',
  'ClientApplication',
  'DomainConfiguration',
  'Project',
  'ProjectMembership',
  'UserConfiguration',
]);

function forbidden(resourceType: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'forbidden',
        details: { text: `Forbidden: ${resourceType} is not accessible` },
      },
    ],
  };
}

function allowed(resourceType: string, access: AccessContext): boolean {
  if (access.superAdmin) {
    return true;
  }
  if (SUPER_ADMIN_ONLY.has(resourceType)) {
    return false;
  }
  return !PROJECT_ADMIN_ONLY.has(resourceType) || access.projectAdmin;
}

/** The resource type a FHIR URL (relative 'Type/..', '/fhir/R4/Type/..' or absolute) addresses. */
function typeOfUrl(url: string): string {
  const path = url.split('?')[0];
  const afterBase = path.includes('/fhir/R4/')
    ? path.slice(path.indexOf('/fhir/R4/') + '/fhir/R4/'.length)
    : path;
  return afterBase.replace(/^\/+/, '').split('/')[0];
}

interface BatchEntry {
  request?: { url?: unknown };
  resource?: { resourceType?: unknown };
}

/** Every resource type a request addresses: its URL's, and for a batch or transaction each entry's. */
function addressedTypes(request: FastifyRequest): string[] {
  const types = [typeOfUrl(request.url)];
  const body = request.body as { resourceType?: unknown; entry?: unknown } | undefined;
  if (typeof body?.resourceType === 'string') {
    types.push(body.resourceType);
  }
  if (body?.resourceType === 'Bundle' && Array.isArray(body.entry)) {
    for (const entry of body.entry as BatchEntry[]) {
      if (typeof entry?.request?.url === 'string') {
        types.push(typeOfUrl(entry.request.url));
      }
      if (typeof entry?.resource?.resourceType === 'string') {
        types.push(entry.resource.resourceType);
      }
    }
  }
  return types;
}

/** Throws 403 when `access` may not touch `resourceType` (the same rule for REST and GraphQL). */
export function guardPlatformType(resourceType: string, access: AccessContext | undefined): void {
  if (access && !allowed(resourceType, access)) {
    throw new OperationOutcomeError(forbidden(resourceType));
  }
}

/** Throws 403 when the caller may not touch a platform type the request addresses. */
export function guardPlatformResources(request: FastifyRequest): void {
  const access = request.bloomAuth?.context.access;
  if (!access) {
    return;
  }
  for (const type of addressedTypes(request)) {
    if (!allowed(type, access)) {
      throw new OperationOutcomeError(forbidden(type));
    }
  }
}
