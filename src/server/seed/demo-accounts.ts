// The demo sign-ins: a User per demo account with the hashed
// demo password, its ProjectMembership in Bloom Clinic (patients with the patient AccessPolicy, Dr.
// Chen with the clinic staff policy, the admin with admin: true and the staff and admin policies as
// access[]), the patient AccessPolicy as the project's default for patient registration, and the
// app's public ClientApplication. Written inside the demo clinic's
// transaction, so the clinic and its accounts are stored together or not at all.
import type {
  AccessPolicy,
  Bundle,
  ClientApplication,
  Project,
  ProjectMembership,
  Reference,
  Resource,
  User,
} from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, DEMO_PROJECT_NAME, getDemoPassword } from './demo';
import type { DemoAccount } from './demo';
import { hashPassword } from '../auth/passwords';
import type { Repository } from '../repo';
import { APP_CLIENT_NAME } from './app-client';
import {
  buildAdminAccessPolicy,
  buildPatientAccessPolicy,
  buildPractitionerAccessPolicy,
} from './demo-policies';

export { buildPatientAccessPolicy, THREAD_HEADER_UPDATE } from './demo-policies';

export interface DemoAccountOptions {
  /** The demo password; DEMO_PASSWORD or 'bloom-demo' when absent. */
  demoPassword?: string;
  /** Where the app lives, for the ClientApplication's redirect URIs (e.g. http://localhost:3000). */
  appOrigins?: readonly string[];
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
  const [patientPolicy, staffPolicy, adminPolicy] = await createPolicies(projectRepo, [
    buildPatientAccessPolicy(),
    buildPractitionerAccessPolicy(),
    buildAdminAccessPolicy(),
  ]);
  await projectRepo.updateResource<Project>({ ...project, defaultPatientAccessPolicy: patientPolicy });
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
    await projectRepo.createResource(
      withDemoAccess(membership, account.role, { patientPolicy, staffPolicy, adminPolicy }),
    );
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

/** The seeded policies, as references with their names. */
export interface DemoPolicyRefs {
  patientPolicy: Reference<AccessPolicy>;
  staffPolicy: Reference<AccessPolicy>;
  adminPolicy: Reference<AccessPolicy>;
}

async function createPolicies(
  repo: Repository,
  policies: AccessPolicy[],
): Promise<Reference<AccessPolicy>[]> {
  const refs: Reference<AccessPolicy>[] = [];
  for (const policy of policies) {
    const stored = await repo.createResource(policy);
    refs.push({ reference: `AccessPolicy/${stored.id}`, display: stored.name });
  }
  return refs;
}

/**
 * A demo membership's access: a patient's own policy (Medplum puts her Patient for `%patient`), the
 * staff policy for Dr. Chen, and for the admin both the staff and the admin policy as access[]
 * (Medplum combines them), with `admin: true` for the project's memberships, users and Project.
 */
export function withDemoAccess(
  membership: ProjectMembership,
  role: DemoAccount['role'],
  refs: DemoPolicyRefs,
): ProjectMembership {
  switch (role) {
    case 'patient':
      return { ...membership, accessPolicy: refs.patientPolicy };
    case 'practitioner':
      return { ...membership, accessPolicy: refs.staffPolicy };
    case 'admin':
      return {
        ...membership,
        admin: true,
        access: [{ policy: refs.staffPolicy }, { policy: refs.adminPolicy }],
      };
  }
}
