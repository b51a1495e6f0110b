// The demo sign-ins: a User per demo account with the hashed
// demo password, its ProjectMembership in Bloom Clinic (patients with the patient AccessPolicy,
// the admin with admin: true), the patient AccessPolicy as the project's default for patient
// registration, and the app's public ClientApplication. Written inside the demo clinic's
// transaction, so the clinic and its accounts are stored together or not at all.
import type {
  AccessPolicy,
  Bundle,
  ClientApplication,
  Project,
  ProjectMembership,
  Resource,
  User,
} from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, DEMO_PROJECT_NAME, getDemoPassword } from './demo';
import type { DemoAccount } from './demo';
import { hashPassword } from '../auth/passwords';
import type { Repository } from '../repo';
import { APP_CLIENT_NAME } from './app-client';

export interface DemoAccountOptions {
  /** The demo password; DEMO_PASSWORD or 'bloom-demo' when absent. */
  demoPassword?: string;
  /** Where the app lives, for the ClientApplication's redirect URIs (e.g. http://localhost:3000). */
  appOrigins?: readonly string[];
}

/** An update that keeps a thread header (no `partOf`) about the same Patient (hers: compartment). */
const HEADER_KEPT =
  "(%before.partOf.empty() and %after.partOf.empty() and %before.subject.reference.startsWith('Patient/') and %after.subject.reference = %before.subject.reference)";

/**
 * A read receipt, as Medplum's ThreadChat writes one when a message reaches its recipient in a
 * two-person thread (PUT with `received` set and status completed): a message to her (her Patient,
 * the subject, among the recipients) with nothing else changed.
 */
const MESSAGE_RECEIPT =
  "(%before.partOf.exists() and %after.partOf = %before.partOf and %after.subject = %before.subject and %after.sender = %before.sender and %after.recipient = %before.recipient and %after.payload = %before.payload and %after.sent = %before.sent and %after.status = 'completed' and %after.received.exists() and %before.recipient.reference contains %before.subject.reference)";

/**
 * Which Communication writes a patient may make, as a Medplum AccessPolicy writeConstraint: any
 * create (her compartment, checked by the server), and as updates only a thread header kept a
 * header about her, or a read receipt of a message to her.
 */
export const THREAD_HEADER_UPDATE = `%before.exists() implies (${HEADER_KEPT} or ${MESSAGE_RECEIPT})`;

/** What a patient may touch in the demo clinic: their own compartment (SPEC §6). */
export function buildPatientAccessPolicy(): AccessPolicy {
  const readonly = [
    'Appointment',
    'CarePlan',
    'Coverage',
    'DiagnosticReport',
    'DocumentReference',
    'Immunization',
    'Media',
    'MedicationRequest',
    'Specimen',
  ];
  return {
    resourceType: 'AccessPolicy',
    name: 'Bloom patient',
    compartment: { reference: '%patient' },
    resource: [
      { resourceType: 'Patient', compartment: { reference: '%patient' } },
      { resourceType: 'Observation', compartment: { reference: '%patient' } },
      // Her messages, and the thread headers she is the subject of, which she may also update:
      // Medplum's ThreadChat PATCHes the header after each message. Messages (with partOf) stay
      // as sent, and a header stays a header about the same patient.
      {
        resourceType: 'Communication',
        compartment: { reference: '%patient' },
        writeConstraint: [{ language: 'text/fhirpath', expression: THREAD_HEADER_UPDATE }],
      },
      // Her live updates: Subscriptions she creates live in her compartment.
      { resourceType: 'Subscription', compartment: { reference: '%patient' } },
      // A message's attachment: her uploads carry her Patient as securityContext.
      { resourceType: 'Binary', compartment: { reference: '%patient' } },
      // Her answers to the clinic's forms.
      { resourceType: 'QuestionnaireResponse', compartment: { reference: '%patient' } },
      ...readonly.map((resourceType) => ({
        resourceType,
        compartment: { reference: '%patient' },
        readonly: true,
      })),
      { resourceType: 'Practitioner', readonly: true },
      { resourceType: 'Organization', readonly: true },
      { resourceType: 'Location', readonly: true },
      { resourceType: 'Schedule', readonly: true },
      { resourceType: 'Slot', readonly: true },
      // The clinic's forms and services, in no patient's compartment.
      { resourceType: 'Questionnaire', readonly: true },
      { resourceType: 'HealthcareService', readonly: true },
    ],
  };
}

/** The profile (Patient or Practitioner) of each demo account, found by its email in the clinic bundle. */
function profileReference(account: DemoAccount, bundle: Bundle, response: Bundle): string {
  const index = (bundle.entry ?? []).findIndex((entry) => {
    const resource = entry.resource as (Resource & { telecom?: { value?: string }[] }) | undefined;
    return (
      resource?.resourceType === account.profileType &&
      resource.telecom?.some((telecom) => telecom.value === account.email)
    );
  });
  // The response location is '<base>Type/id/_history/version'.
  const location = response.entry?.[index]?.response?.location ?? '';
  const match = /([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})\/_history\/[^/]+$/.exec(location);
  if (index < 0 || !match || match[1] !== account.profileType) {
    throw new Error(`The demo clinic has no ${account.profileType} for ${account.email}`);
  }
  return `${match[1]}/${match[2]}`;
}

export async function seedDemoAccounts(
  projectRepo: Repository,
  project: Project,
  bundle: Bundle,
  response: Bundle,
  options: DemoAccountOptions = {},
): Promise<void> {
  const password = options.demoPassword ?? getDemoPassword();
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => hashPassword(password)));
  const policy = await projectRepo.createResource(buildPatientAccessPolicy());
  const policyRef = { reference: `AccessPolicy/${policy.id}`, display: policy.name };
  await projectRepo.updateResource<Project>({ ...project, defaultPatientAccessPolicy: policyRef });
  const projectRef = { reference: `Project/${project.id}`, display: DEMO_PROJECT_NAME };

  for (const [index, account] of DEMO_ACCOUNTS.entries()) {
    const user = await projectRepo.createResource<User>({
      resourceType: 'User',
      firstName: account.givenName,
      lastName: account.familyName,
      email: account.email,
      emailVerified: true,
      passwordHash: hashes[index],
    });
    const membership: ProjectMembership = {
      resourceType: 'ProjectMembership',
      project: projectRef,
      user: { reference: `User/${user.id}`, display: account.email },
      profile: {
        reference: profileReference(account, bundle, response),
        display: `${account.givenName} ${account.familyName}`,
      },
    };
    if (account.role === 'patient') {
      membership.accessPolicy = policyRef;
    }
    if (account.role === 'admin') {
      membership.admin = true;
    }
    await projectRepo.createResource(membership);
  }

  const redirectUris = (options.appOrigins ?? []).map((origin) => `${origin}/signin`);
  const client: ClientApplication = {
    resourceType: 'ClientApplication',
    name: APP_CLIENT_NAME,
    status: 'active',
  };
  if (redirectUris.length > 0) {
    client.redirectUris = redirectUris;
  }
  await projectRepo.createResource(client);
}
