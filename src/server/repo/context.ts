// Who is writing, and for which project. Every Repository is created for one context; the identity
// issue will build it from the access token (and add access policies here).
import type { Reference } from '@medplum/fhirtypes';
import { createReference, systemDevice } from '../../fhir';

export interface RepositoryContext {
  /** Stamped as meta.project on every version written (the demo clinic's project, later the caller's). */
  project?: string;
  /** Stamped as meta.author on every version written. */
  author: Reference;
}

/** The context of the server itself, used until sign-in exists (SPEC §3 "System reference"). */
export function systemContext(project?: string): RepositoryContext {
  return { project, author: createReference(systemDevice) };
}
