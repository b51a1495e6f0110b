// Request and response shapes of the sign-in calls (SPEC §3 Login response and Session details,
// SPEC §7 Authentication), named as in @medplum/core so its users feel at home.
import type {
  AccessPolicy,
  Bot,
  ClientApplication,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  RelatedPerson,
  User,
  UserConfiguration,
} from '@medplum/fhirtypes';
import type { CodeChallengeMethod } from './pkce';

export type ProfileResource = Patient | Practitioner | RelatedPerson | ClientApplication | Bot;

export interface BaseLoginRequest {
  projectId?: string;
  clientId?: string;
  resourceType?: string;
  scope?: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: CodeChallengeMethod;
  googleClientId?: string;
  launch?: string;
  redirectUri?: string;
  /** The email domain of an external identity provider; travels in the OAuth state (SPEC §4). */
  domain?: string;
}

export interface EmailPasswordLoginRequest extends BaseLoginRequest {
  email: string;
  password: string;
  remember?: boolean;
}

export interface GoogleLoginRequest extends BaseLoginRequest {
  googleClientId: string;
  googleCredential: string;
  createUser?: boolean;
}

export interface NewUserRequest {
  firstName: string;
  lastName: string;
  email?: string;
  password: string;
  remember?: boolean;
  projectId?: string;
  clientId?: string;
  recaptchaSiteKey?: string;
  recaptchaToken?: string;
}

export interface NewProjectRequest {
  login: string;
  projectName: string;
}

export interface NewPatientRequest {
  login: string;
  projectId: string;
}

/** SPEC §3 Login response. */
export interface LoginAuthenticationResponse {
  login: string;
  code?: string;
  mfaRequired?: boolean;
  memberships?: ProjectMembership[];
  authorizeUrl?: string;
  domain?: string;
}

/** SPEC §3 Session details, from GET auth/me. */
export interface SessionDetails {
  user?: Pick<User, 'resourceType' | 'id' | 'email' | 'firstName' | 'lastName' | 'mfaEnrolled'>;
  profile: ProfileResource;
  project: Project;
  membership: ProjectMembership;
  config?: UserConfiguration;
  accessPolicy?: AccessPolicy;
}
