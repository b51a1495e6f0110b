// Whom a patient calls, as links a phone dials: her clinic (name and phone from her managing
// Organization, the ClinicContactFields fragment) and the emergency number.
import Link from '@mui/material/Link';
import type { ClinicContactFieldsFragment } from '../../graphql';
import { translate } from '../i18n/i18n';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

/** The emergency number of the clinic's country (the demo clinic is in the United States). */
export const EMERGENCY_NUMBER = '911';

export interface ClinicContact {
  name: string;
  phone: string | undefined;
}

export function clinicContact(patient: ClinicContactFieldsFragment | null | undefined): ClinicContact {
  const organization = patient?.managingOrganization;
  const resource =
    organization?.resource && 'name' in organization.resource ? organization.resource : undefined;
  const phone = resource?.telecom?.find((t) => t?.system === 'phone' && t.value)?.value ?? undefined;
  return { name: resource?.name ?? organization?.display ?? translate(shellStrings.yourClinic), phone };
}

export function Phone({ number }: { number: string }) {
  return <Link href={`tel:${number.replace(/[^+\d]/g, '')}`}>{number}</Link>;
}

export function CallClinic({ clinic }: { clinic: ClinicContact }) {
  const t = useT();
  return clinic.phone ? (
    <>
      {t(shellStrings.clinicAt, { clinic: clinic.name })} <Phone number={clinic.phone} />
    </>
  ) : (
    <>{clinic.name}</>
  );
}
