// A stolen session must not become a kept account: a caller's write that changes a User's email or
// sets a ClientApplication's secret needs a fresh sign-in (auth/fresh-sign-in.ts). With an older
// session the caller signs in again, or uses ClientApplication/$rotate-secret with the password.
import type { ClientApplication, OperationOutcome, Resource, User } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../fhir';
import type { AccessContext } from '../access/context';
import { RECENT_AUTH_REQUIRED } from '../auth/fresh-sign-in';

function staleSession(field: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      { severity: 'error', code: 'forbidden', details: { text: RECENT_AUTH_REQUIRED }, expression: [field] },
    ],
  };
}

/** The credential field this write changes, if any. */
function changedCredential(candidate: Resource, previous: Resource | undefined): string | undefined {
  if (candidate.resourceType === 'User' && previous) {
    const before = (previous as User).email?.toLowerCase();
    const after = (candidate as User).email?.toLowerCase();
    return after !== undefined && after !== before ? 'User.email' : undefined;
  }
  if (candidate.resourceType === 'ClientApplication') {
    const secret = (candidate as ClientApplication).secret;
    const before = (previous as ClientApplication | undefined)?.secret;
    return secret && secret !== before ? 'ClientApplication.secret' : undefined;
  }
  return undefined;
}

/** Throws 403 when a caller with an older session changes an email or creates a client secret. */
export function checkCredentialWrite(
  access: AccessContext,
  candidate: Resource,
  previous: Resource | undefined,
): void {
  const field = changedCredential(candidate, previous);
  if (field && !access.freshSignIn) {
    throw new OperationOutcomeError(staleSession(field));
  }
}
