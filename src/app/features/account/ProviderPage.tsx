// account/provider (SPEC §2 Provider page): the patient's general practitioner (name, photo,
// qualification, phone) and clinic (the managing organization), from the one AccountProvider query;
// when no general practitioner is set, the fixed placeholder doctor, phone and clinic.
import { useQuery } from '@apollo/client/react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AccountProviderDocument, type AccountProviderQuery } from '../../../graphql';
import { attachmentUrl } from '../../components/AttachmentViewer';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { useT } from '../../i18n/LocaleProvider';
import { useSession } from '../../session/BloomClientContext';
import { accountStrings as s } from './strings';

/** SPEC §2: shown when the patient has no general practitioner. */
export const PLACEHOLDER_PROVIDER = {
  doctor: 'Dr. Jordan Ellis',
  phone: '+1-217-555-0100',
  clinic: 'Bloom Clinic',
} as const;

export interface ProviderView {
  readonly doctor: string;
  readonly qualification?: string;
  readonly photoUrl?: string;
  readonly phone?: string;
  readonly clinic?: string;
  readonly clinicPhone?: string;
  readonly clinicAddress?: string;
  readonly placeholder: boolean;
}

type QueriedPatient = NonNullable<AccountProviderQuery['Patient']>;
type GpReference = NonNullable<NonNullable<QueriedPatient['generalPractitioner']>[number]>;
type GpResource = NonNullable<GpReference['resource']>;
type Telecom = readonly ({ system: string | null; value: string | null } | null)[] | null | undefined;

function phoneOf(telecom: Telecom): string | undefined {
  return telecom?.find((contact) => contact?.system === 'phone')?.value ?? undefined;
}

function practitionerName(resource: GpResource): string | undefined {
  if ('organizationName' in resource) return resource.organizationName ?? undefined;
  const name = resource.name?.[0];
  if (!name) return undefined;
  if (name.text) return name.text;
  const parts = [...(name.prefix ?? []), ...(name.given ?? []), name.family, ...(name.suffix ?? [])];
  return parts.filter(Boolean).join(' ') || undefined;
}

/** What the page shows for the queried Patient: its first general practitioner, else the placeholder. */
export function providerView(patient: QueriedPatient): ProviderView {
  const gp = patient.generalPractitioner?.find((reference) => reference?.resource || reference?.display);
  const organization = patient.managingOrganization?.resource;
  const clinic = organization && 'name' in organization ? organization : undefined;
  if (!gp) {
    return { ...PLACEHOLDER_PROVIDER, placeholder: true };
  }
  const resource = gp.resource ?? undefined;
  const practitioner = resource && 'name' in resource ? resource : undefined;
  const photo = practitioner?.photo?.find((attachment) => attachment && attachmentUrl(attachment));
  const address = clinic?.address?.[0];
  return {
    // Empty when the record names no one: the card says 'Your doctor' in the active language.
    doctor: (resource && practitionerName(resource)) ?? gp.display ?? '',
    qualification: practitioner?.qualification?.find((q) => q?.code?.text)?.code?.text ?? undefined,
    photoUrl: photo ? attachmentUrl(photo) : undefined,
    phone: phoneOf(resource?.telecom),
    clinic: clinic?.name ?? patient.managingOrganization?.display ?? undefined,
    clinicPhone: phoneOf(clinic?.telecom),
    clinicAddress: address
      ? [...(address.line ?? []), address.city, [address.state, address.postalCode].filter(Boolean).join(' ')]
          .filter(Boolean)
          .join(', ')
      : undefined,
    placeholder: false,
  };
}

function Phone({ label, number }: { label: string; number: string }) {
  return (
    <Typography>
      {label}: <Link href={`tel:${number.replace(/[^+\d]/g, '')}`}>{number}</Link>
    </Typography>
  );
}

function ProviderCard({ view }: { view: ProviderView }) {
  const t = useT();
  const doctor = view.doctor || t(s.yourDoctor);
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="provider-doctor"
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
        <Avatar
          src={view.photoUrl}
          alt={view.photoUrl ? t(s.photoOf, { name: doctor }) : undefined}
          sx={{ width: 96, height: 96, fontSize: '2rem' }}
        >
          {doctor.replace(/^Dr\.?\s*/, '').charAt(0)}
        </Avatar>
        <Box>
          <Typography variant="body2" color="text.secondary">
            {t(s.yourGp)}
          </Typography>
          <Typography id="provider-doctor" variant="h2" sx={{ fontSize: '1.4rem', mb: 0.5 }}>
            {doctor}
          </Typography>
          {view.qualification && <Typography color="text.secondary">{view.qualification}</Typography>}
          {view.phone && <Phone label={t(s.phone)} number={view.phone} />}
          {view.clinic && <Typography sx={{ mt: 1.5, fontWeight: 600 }}>{view.clinic}</Typography>}
          {view.clinicAddress && <Typography>{view.clinicAddress}</Typography>}
          {view.clinicPhone && view.clinicPhone !== view.phone && (
            <Phone label={t(s.clinicPhone)} number={view.clinicPhone} />
          )}
        </Box>
      </Stack>
      {view.placeholder && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t(s.placeholderNote)}
        </Typography>
      )}
    </Paper>
  );
}

export function ProviderPage() {
  const { profile, loading: sessionLoading } = useSession();
  const t = useT();
  const patientId = profile?.resourceType === 'Patient' ? (profile.id ?? '') : '';
  const { data, loading, error, refetch } = useQuery(AccountProviderDocument, {
    variables: { id: patientId },
    skip: !patientId,
  });
  const patient = data?.Patient;
  return (
    <Box sx={{ maxWidth: 720 }}>
      <PageHeading title={t(s.providerTitle)} />
      {!patientId && !sessionLoading && <EmptyState text={t(s.onlyPatients)} />}
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {(sessionLoading || (loading && !data)) && <LoadingState label={t(s.loadingProvider)} />}
      {patient && <ProviderCard view={providerView(patient)} />}
    </Box>
  );
}
