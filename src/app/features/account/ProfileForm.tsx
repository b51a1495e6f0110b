// The editable details of account/profile (SPEC §2; §3 Patient profile; §5 per-field server issues):
// name, gender (SPEC §3 options), birth date, email and address, read by the one AccountProfile query.
// Save reads the stored Patient, writes the edited parts onto it and PUTs it through the platform
// client; the server's issues show under their fields, the rest in the red alert.
import { useQuery } from '@apollo/client/react';
import type { Patient } from '@medplum/fhirtypes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { AccountProfileDocument, type AccountProfileQuery } from '../../../graphql';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { LoadError, LoadingState } from '../../components/ListStates';
import { validateEmail } from '../../components/emailValidation';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { PlainSelectField } from '../../components/PlainSelectField';
import { PlainTextField, type PlainTextFieldProps } from '../../components/PlainTextField';
import { translate } from '../../i18n/i18n';
import { useT, type Translate } from '../../i18n/LocaleProvider';
import { useBloomClient } from '../../session/BloomClientContext';
import {
  draftFromPatient,
  GENDER_OPTIONS,
  PROFILE_SERVER_FIELDS,
  patientWithDraft,
  type GenderValue,
  type ProfileDraft,
  type ProfileServerField,
} from './profileDraft';
import { accountStrings as s } from './strings';

type DraftField = Exclude<keyof ProfileDraft, 'gender'>;
type ExtraFieldProps = Pick<PlainTextFieldProps, 'autoComplete' | 'placeholder' | 'type' | 'inputMode'>;

/** Local checks before anything is sent (the email, when one is given, must be an address). */
export function validateProfileDraft(draft: ProfileDraft): Partial<Record<ProfileServerField, string>> {
  const email = draft.email.trim() ? validateEmail(draft.email) : undefined;
  return email ? { 'Patient.telecom': email } : {};
}

/** The option the native select reports, as a gender value (only the listed options can be chosen). */
function genderValue(value: string): GenderValue {
  return GENDER_OPTIONS.find((option) => option.value === value)?.value ?? '';
}

function genderOptions(t: Translate) {
  return GENDER_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }));
}

function DetailsForm({ patient }: { patient: NonNullable<AccountProfileQuery['Patient']> }) {
  const client = useBloomClient();
  const form = useOutcomeForm(PROFILE_SERVER_FIELDS);
  const [draft, setDraft] = useState<ProfileDraft>(() => draftFromPatient(patient));
  const [saved, setSaved] = useState(false);
  const errors = form.fieldErrors;
  const t = useT();

  function field(name: DraftField, label: string, error?: string, extra: ExtraFieldProps = {}) {
    return (
      <PlainTextField
        id={`profile-${name}`}
        name={name}
        label={label}
        fullWidth
        value={draft[name]}
        onChange={(event) => {
          setSaved(false);
          setDraft({ ...draft, [name]: event.target.value });
        }}
        {...fieldErrorProps(error)}
        {...extra}
      />
    );
  }

  async function save() {
    setSaved(false);
    const id = patient.id ?? '';
    const stored = await client.readResource<Patient>('Patient', id, { cache: 'no-cache' });
    // The update evicts Patient/{id} from Apollo, so AccountProfile and the header read it again.
    await client.updateResource(patientWithDraft(stored, draft));
    // The header greets the patient by name: refresh the session's copy of the profile.
    void client.reloadProfile().catch(() => undefined);
    setSaved(true);
  }

  return (
    <OutcomeForm
      label={t(s.details)}
      form={form}
      submitLabel={t(s.save)}
      validate={() => validateProfileDraft(draft)}
      action={save}
    >
      {saved && (
        <Alert severity="success" role="status">
          {t(s.saved)}
        </Alert>
      )}
      <FieldGrid>
        <Box>{field('given', t(s.firstName), errors['Patient.name'], { autoComplete: 'given-name' })}</Box>
        <Box>{field('family', t(s.lastName), undefined, { autoComplete: 'family-name' })}</Box>
        <Box>
          <PlainSelectField
            id="profile-gender"
            name="gender"
            label={t(s.gender)}
            fullWidth
            options={genderOptions(t)}
            value={draft.gender}
            onChange={(value) => {
              setSaved(false);
              setDraft({ ...draft, gender: genderValue(value) });
            }}
            {...fieldErrorProps(errors['Patient.gender'])}
          />
        </Box>
        <Box>
          {field('birthDate', t(s.birthDate), errors['Patient.birthDate'], {
            placeholder: t(s.birthDateFormat),
            autoComplete: 'bday',
            inputMode: 'numeric',
          })}
        </Box>
        <Wide>
          {field('email', t(s.email), errors['Patient.telecom'], { type: 'email', autoComplete: 'email' })}
        </Wide>
      </FieldGrid>
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Typography component="legend" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t(s.address)}
        </Typography>
        <FieldGrid>
          <Wide>{field('line1', t(s.street), undefined, { autoComplete: 'address-line1' })}</Wide>
          <Wide>{field('line2', t(s.apartment), undefined, { autoComplete: 'address-line2' })}</Wide>
          <Box>{field('city', t(s.city), undefined, { autoComplete: 'address-level2' })}</Box>
          <Box>{field('state', t(s.state), undefined, { autoComplete: 'address-level1' })}</Box>
          <Box>{field('postalCode', t(s.postalCode), undefined, { autoComplete: 'postal-code' })}</Box>
          <Box>{field('country', t(s.country), undefined, { autoComplete: 'country' })}</Box>
        </FieldGrid>
        {errors['Patient.address'] && (
          <FormHelperText error id="profile-address-error">
            {errors['Patient.address']}
          </FormHelperText>
        )}
      </Box>
    </OutcomeForm>
  );
}

/** Two columns from the sm breakpoint, one on a phone (CSS grid: lighter than MUI's Grid). */
function FieldGrid({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
      }}
    >
      {children}
    </Box>
  );
}

/** A field across both columns. */
function Wide({ children }: { children: ReactNode }) {
  return <Box sx={{ gridColumn: '1 / -1' }}>{children}</Box>;
}

export function ProfileForm({ patientId }: { patientId: string }) {
  const { data, loading, error, refetch } = useQuery(AccountProfileDocument, {
    variables: { id: patientId },
  });
  const t = useT();
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (loading && !data) return <LoadingState label={t(s.loadingProfile)} />;
  const patient = data?.Patient;
  if (!patient) return <LoadError error={new Error(translate(s.profileNotFound))} />;
  return <DetailsForm patient={patient} />;
}
