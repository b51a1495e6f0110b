// The profile form's values (SPEC §3 Patient profile: name, gender, birthDate, telecom email, address)
// read from the AccountProfile query, and written back onto the stored Patient. Only the edited parts
// change: other names, phones, address parts and every other element of the Patient stay as they were.
import type { Address, ContactPoint, HumanName, Patient } from '@medplum/fhirtypes';
import type { AccountProfileQuery } from '../../../graphql';
import { accountStrings } from './strings';

/** SPEC §3: gender options empty, female, male, other, unknown (labels are messages to translate). */
export const GENDER_OPTIONS = [
  { value: '', label: accountStrings.noGender },
  { value: 'female', label: accountStrings.female },
  { value: 'male', label: accountStrings.male },
  { value: 'other', label: accountStrings.other },
  { value: 'unknown', label: accountStrings.unknown },
] as const;

export type GenderValue = (typeof GENDER_OPTIONS)[number]['value'];

export interface ProfileDraft {
  readonly given: string;
  readonly family: string;
  readonly gender: GenderValue;
  readonly birthDate: string;
  readonly email: string;
  readonly line1: string;
  readonly line2: string;
  readonly city: string;
  readonly state: string;
  readonly postalCode: string;
  readonly country: string;
}

/** The form's fields as the server names them in an OperationOutcome issue's expression. */
export const PROFILE_SERVER_FIELDS = [
  'Patient.name',
  'Patient.gender',
  'Patient.birthDate',
  'Patient.telecom',
  'Patient.address',
] as const;
export type ProfileServerField = (typeof PROFILE_SERVER_FIELDS)[number];

type QueriedPatient = NonNullable<AccountProfileQuery['Patient']>;

function isGender(value: string | null | undefined): value is GenderValue {
  return GENDER_OPTIONS.some((option) => option.value === value);
}

/** The name the form edits: the official one, else the first. */
function editedNameIndex(names: readonly ({ use?: string | null } | null)[]): number {
  const official = names.findIndex((name) => name?.use === 'official');
  return official >= 0 ? official : 0;
}

/** The address the form edits: the home one, else the first. */
function editedAddressIndex(addresses: readonly ({ use?: string | null } | null)[]): number {
  const home = addresses.findIndex((address) => address?.use === 'home');
  return home >= 0 ? home : 0;
}

function text(value: string | null | undefined): string {
  return value ?? '';
}

export function draftFromPatient(patient: QueriedPatient): ProfileDraft {
  const names = patient.name ?? [];
  const name = names[editedNameIndex(names)];
  const addresses = patient.address ?? [];
  const address = addresses[editedAddressIndex(addresses)];
  const email = patient.telecom?.find((contact) => contact?.system === 'email');
  const given = (name?.given ?? []).filter((part): part is string => !!part).join(' ');
  return {
    given: given || (name?.family ? '' : text(name?.text)),
    family: text(name?.family),
    gender: isGender(patient.gender) ? patient.gender : '',
    birthDate: text(patient.birthDate),
    email: text(email?.value),
    line1: text(address?.line?.[0]),
    line2: text(address?.line?.slice(1).filter(Boolean).join(', ')),
    city: text(address?.city),
    state: text(address?.state),
    postalCode: text(address?.postalCode),
    country: text(address?.country),
  };
}

/** Sets or drops one optional string element of an object (FHIR has no empty strings). */
function withText<T extends object, K extends keyof T>(object: T, key: K, value: string): T {
  const copy = { ...object };
  const trimmed = value.trim();
  if (trimmed) copy[key] = trimmed as T[K];
  else delete copy[key];
  return copy;
}

function replaceAt<T>(list: readonly T[], index: number, item: T | undefined): T[] {
  const copy = [...list];
  if (item === undefined) copy.splice(index, 1);
  else if (index < copy.length) copy[index] = item;
  else copy.push(item);
  return copy;
}

function isEmptyObject(value: object, ignoring: readonly string[]): boolean {
  return Object.keys(value).every((key) => ignoring.includes(key));
}

function editedName(current: HumanName | undefined, draft: ProfileDraft): HumanName | undefined {
  // A free-text name would hide the edited parts wherever names are displayed: the parts replace it.
  const { text: _text, ...rest } = current ?? {};
  const given = draft.given.trim().split(/\s+/).filter(Boolean);
  let name: HumanName = { ...rest };
  if (given.length > 0) name.given = given;
  else delete name.given;
  name = withText(name, 'family', draft.family);
  return isEmptyObject(name, ['use']) ? undefined : name;
}

function editedAddress(current: Address | undefined, draft: ProfileDraft): Address | undefined {
  const lines = [draft.line1, ...draft.line2.split(',')].map((line) => line.trim()).filter(Boolean);
  let address: Address = { ...(current ?? { use: 'home' }) };
  if (lines.length > 0) address.line = lines;
  else delete address.line;
  address = withText(address, 'city', draft.city);
  address = withText(address, 'state', draft.state);
  address = withText(address, 'postalCode', draft.postalCode);
  address = withText(address, 'country', draft.country);
  delete address.text;
  return isEmptyObject(address, ['use', 'type']) ? undefined : address;
}

function editedTelecom(current: readonly ContactPoint[], email: string): ContactPoint[] {
  const index = current.findIndex((contact) => contact.system === 'email');
  const value = email.trim();
  const existing = index >= 0 ? current[index] : undefined;
  const contact: ContactPoint | undefined = value
    ? { ...(existing ?? { system: 'email', use: 'home' }), value }
    : undefined;
  return replaceAt(current, index >= 0 ? index : current.length, contact);
}

function setList<K extends 'name' | 'address' | 'telecom'>(
  patient: Patient,
  key: K,
  list: NonNullable<Patient[K]>,
): void {
  if (list.length > 0) patient[key] = list;
  else delete patient[key];
}

/** The stored Patient with the draft's values written onto it (what the form PUTs back). */
export function patientWithDraft(stored: Patient, draft: ProfileDraft): Patient {
  const patient: Patient = { ...stored };
  const names = stored.name ?? [];
  const nameIndex = editedNameIndex(names);
  setList(patient, 'name', replaceAt(names, nameIndex, editedName(names[nameIndex], draft)));
  const addresses = stored.address ?? [];
  const addressIndex = editedAddressIndex(addresses);
  setList(
    patient,
    'address',
    replaceAt(addresses, addressIndex, editedAddress(addresses[addressIndex], draft)),
  );
  setList(patient, 'telecom', editedTelecom(stored.telecom ?? [], draft.email));
  if (draft.gender) patient.gender = draft.gender;
  else delete patient.gender;
  const birthDate = draft.birthDate.trim();
  if (birthDate) patient.birthDate = birthDate;
  else delete patient.birthDate;
  return patient;
}
