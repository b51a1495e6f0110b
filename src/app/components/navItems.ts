// What the header's navigation offers whom (SPEC §2 Navigation, §6 roles): a patient her screens; a
// care-team member her patients, her inbox and the resource search (/:resourceType, picked by type);
// a project admin also the project's administration through the generic resource pages.
import type { Message } from '../i18n/catalog';
import { shellStrings as m } from './strings';

export interface NavItem {
  readonly label: Message;
  readonly to: string;
}

export interface NavGroup {
  /** The menu button's text. */
  readonly label: Message;
  readonly id: string;
  readonly items: readonly NavItem[];
}

export const PATIENT_NAV: readonly NavItem[] = [
  { label: m.healthRecord, to: '/health-record' },
  { label: m.messages, to: '/messages' },
  { label: m.getCare, to: '/get-care' },
  { label: m.forms, to: '/forms' },
];

export const CARE_TEAM_NAV: readonly NavItem[] = [
  { label: m.patients, to: '/' },
  { label: m.inbox, to: '/inbox' },
];

export const RECORD_TYPES: NavGroup = {
  label: m.records,
  id: 'records',
  items: [
    { label: m.recordPatients, to: '/Patient' },
    { label: m.recordObservations, to: '/Observation' },
    { label: m.recordReports, to: '/DiagnosticReport' },
    { label: m.recordMessages, to: '/Communication' },
    { label: m.recordAppointments, to: '/Appointment' },
    { label: m.recordMedications, to: '/MedicationRequest' },
    { label: m.recordVaccines, to: '/Immunization' },
    { label: m.recordQuestionnaires, to: '/Questionnaire' },
  ],
};

export const ADMINISTRATION: NavGroup = {
  label: m.admin,
  id: 'admin',
  items: [
    { label: m.adminMemberships, to: '/ProjectMembership' },
    { label: m.adminPolicies, to: '/AccessPolicy' },
    { label: m.adminBots, to: '/Bot' },
    { label: m.adminClients, to: '/ClientApplication' },
    { label: m.adminInvite, to: '/admin/invite' },
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
