// What the header's navigation offers whom (SPEC §2 Navigation, §6 roles): a patient her screens; a
// care-team member her patients, her inbox and the resource search (/:resourceType, picked by type);
// a project admin also the project's administration through the generic resource pages.
export interface NavItem {
  readonly label: string;
  readonly to: string;
}

export interface NavGroup {
  /** The menu button's text. */
  readonly label: string;
  readonly id: string;
  readonly items: readonly NavItem[];
}

export const PATIENT_NAV: readonly NavItem[] = [
  { label: 'Health Record', to: '/health-record' },
  { label: 'Messages', to: '/messages' },
  { label: 'Get Care', to: '/get-care' },
  { label: 'Forms', to: '/forms' },
];

export const CARE_TEAM_NAV: readonly NavItem[] = [
  { label: 'Patients', to: '/' },
  { label: 'Inbox', to: '/inbox' },
];

export const RECORD_TYPES: NavGroup = {
  label: 'Records',
  id: 'records',
  items: [
    { label: 'Patients (Patient)', to: '/Patient' },
    { label: 'Observations (Observation)', to: '/Observation' },
    { label: 'Lab reports (DiagnosticReport)', to: '/DiagnosticReport' },
    { label: 'Messages (Communication)', to: '/Communication' },
    { label: 'Appointments (Appointment)', to: '/Appointment' },
    { label: 'Medications (MedicationRequest)', to: '/MedicationRequest' },
    { label: 'Vaccines (Immunization)', to: '/Immunization' },
    { label: 'Questionnaires (Questionnaire)', to: '/Questionnaire' },
  ],
};

export const ADMINISTRATION: NavGroup = {
  label: 'Admin',
  id: 'admin',
  items: [
    { label: 'Memberships', to: '/ProjectMembership' },
    { label: 'Access policies', to: '/AccessPolicy' },
    { label: 'Bots', to: '/Bot' },
    { label: 'Client applications', to: '/ClientApplication' },
    { label: 'Invite a user', to: '/admin/invite' },
  ],
};

export type NavRole = 'patient' | 'care-team' | 'admin';

export function navFor(role: NavRole): { links: readonly NavItem[]; groups: readonly NavGroup[] } {
  if (role === 'patient') return { links: PATIENT_NAV, groups: [] };
  return { links: CARE_TEAM_NAV, groups: role === 'admin' ? [RECORD_TYPES, ADMINISTRATION] : [RECORD_TYPES] };
}

export function navRole(profileType: string | undefined, admin: boolean): NavRole {
  if (admin) return 'admin';
  return profileType === 'Practitioner' || profileType === 'PractitionerRole' ? 'care-team' : 'patient';
}
