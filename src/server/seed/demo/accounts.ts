// The demo sign-ins. Documentation, tests and the sign-in code rely on these names and emails: change them
// only together with README and the tests.

/** Password of every demo account unless DEMO_PASSWORD is set. */
export const DEFAULT_DEMO_PASSWORD = 'bloom-demo';

export type DemoRole = 'patient' | 'practitioner' | 'admin';

export interface DemoAccount {
  /** Key of the account's profile in the demo bundle (see buildDemoClinic). */
  key: 'maria' | 'aisha' | 'dr-chen' | 'admin';
  role: DemoRole;
  email: string;
  givenName: string;
  familyName: string;
  /** The profile's resource type: the account signs in as this Patient or Practitioner. */
  profileType: 'Patient' | 'Practitioner';
}

export const DEMO_PROJECT_NAME = 'Bloom Clinic';

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    key: 'maria',
    role: 'patient',
    email: 'maria@bloom.example',
    givenName: 'Maria',
    familyName: 'Garcia',
    profileType: 'Patient',
  },
  {
    key: 'aisha',
    role: 'patient',
    email: 'aisha@bloom.example',
    givenName: 'Aisha',
    familyName: 'Khan',
    profileType: 'Patient',
  },
  {
    key: 'dr-chen',
    role: 'practitioner',
    email: 'dr.chen@bloom.example',
    givenName: 'Lily',
    familyName: 'Chen',
    profileType: 'Practitioner',
  },
  {
    key: 'admin',
    role: 'admin',
    email: 'admin@bloom.example',
    givenName: 'Bloom',
    familyName: 'Admin',
    profileType: 'Practitioner',
  },
];

/** The demo password: DEMO_PASSWORD when set and non-empty, else 'bloom-demo'. */
export function getDemoPassword(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.DEMO_PASSWORD;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_DEMO_PASSWORD;
}

export function getDemoAccount(key: DemoAccount['key']): DemoAccount {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === key);
  if (!account) {
    throw new Error(`Unknown demo account: ${key}`);
  }
  return account;
}
