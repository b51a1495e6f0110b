// Who is writing, and for which project. Every Repository is created for one context, built by the
// identity layer from the access token. It lives in access/, a leaf under repo/ and search/, so both
// can read it without importing each other.
import type { AccessPolicy, ProjectMembership, Reference } from '@medplum/fhirtypes';
import { createReference, systemDevice } from '../../fhir';
import type { PopulatedAccessPolicy } from './policy';

export interface RepositoryContext {
  /** Stamped as meta.project on every version written (the demo clinic's project, later the caller's). */
  project?: string;
  /** Stamped as meta.author on every version written. */
  author: Reference;
  /**
   * Who is asking, for access control. Absent for the server's own work
   * (migrations, the demo seed, the auth flows' bookkeeping), which is unrestricted.
   */
  access?: AccessContext;
}

/** Built from a verified access token by the identity layer; enforced by the Repository. */
export interface AccessContext {
  /** Project.superAdmin: sees and writes every project. */
  superAdmin: boolean;
  /** ProjectMembership.admin: also manages the project's memberships, users and clients. */
  projectAdmin: boolean;
  /** The signed-in profile, e.g. 'Patient/123' or 'Practitioner/456'. */
  profile: Reference;
  membership: Reference<ProjectMembership>;
  /** Set when the profile is a Patient: reads are limited to this Patient compartment. */
  patientCompartment?: string;
  accessPolicy?: AccessPolicy;
  /**
   * Every policy of the membership combined, parameters substituted (policy.ts combinePolicies):
   * what the caller may do, as data.
   */
  policy: PopulatedAccessPolicy;
  /** The session began with a password or identity-provider sign-in minutes ago (auth/fresh-sign-in.ts). */
  freshSignIn?: boolean;
}

/** The context of the server itself, used until sign-in exists (SPEC §3 "System reference"). */
export function systemContext(project?: string): RepositoryContext {
  return { project, author: createReference(systemDevice) };
}
