// /admin/invite: a project admin invites a practitioner or a patient to the project (SPEC §6 project
// administration, §7 invite) through POST admin/projects/{id}/invite, as Medplum's app does. The
// form is checked before sending; the server's refusals show under their field or in the red alert
// (SPEC §5, §8); once invited, a link opens the new ProjectMembership. Anyone else is told that only
// project admins invite (the server answers them 403 too). The policy choices: one GraphQL request.
import { useQuery } from '@apollo/client/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import NativeSelect from '@mui/material/NativeSelect';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { InviteAccessPoliciesDocument } from '../../../graphql';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { PageHeading } from '../../components/PageHeading';
import { PlainTextField } from '../../components/PlainTextField';
import { useBloomClient } from '../../session/BloomClientContext';
import {
  EMPTY_INVITE,
  INVITE_FIELDS,
  inviteBody,
  policyOptions,
  validateInvite,
  type InviteRole,
  type InviteValues,
} from './inviteRequest';

interface Invited {
  readonly name: string;
  readonly email: string;
  readonly membership: ProjectMembership;
}

function PolicySelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  error: string | undefined;
}) {
  const id = useId();
  const { data, loading, error: loadError } = useQuery(InviteAccessPoliciesDocument);
  const options = useMemo(() => policyOptions(data?.AccessPolicyList), [data]);
  const help =
    error ??
    (loadError
      ? `The access policies could not be loaded: ${loadError.message}`
      : 'With none, a patient gets the project’s default patient policy.');
  return (
    <FormControl fullWidth error={error !== undefined || loadError !== undefined}>
      <InputLabel variant="standard" htmlFor={id} shrink>
        Access policy
      </InputLabel>
      <NativeSelect
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputProps={{ 'aria-describedby': `${id}-help` }}
      >
        <option value="">{loading ? 'Loading policies…' : 'None'}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
      <FormHelperText id={`${id}-help`}>{help}</FormHelperText>
    </FormControl>
  );
}

function InviteForm({ projectId }: { projectId: string }) {
  const client = useBloomClient();
  const [values, setValues] = useState<InviteValues>(EMPTY_INVITE);
  const [invited, setInvited] = useState<Invited>();
  const form = useOutcomeForm(INVITE_FIELDS);
  const errors = form.fieldErrors;
  const roleLabelId = useId();
  const set = <K extends keyof InviteValues>(key: K, value: InviteValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  async function invite() {
    setInvited(undefined);
    const body = inviteBody(values);
    const membership = await client.invite(projectId, body);
    setInvited({ name: `${body.firstName} ${body.lastName}`, email: body.email ?? '', membership });
    setValues(EMPTY_INVITE);
  }

  function text(name: 'firstName' | 'lastName' | 'email', label: string, autoComplete: string) {
    return (
      <PlainTextField
        id={`invite-${name}`}
        name={name}
        label={label}
        required
        fullWidth
        type={name === 'email' ? 'email' : 'text'}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => set(name, event.target.value)}
        {...fieldErrorProps(errors[name])}
      />
    );
  }

  return (
    <>
      {invited && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {`${invited.name} (${invited.email}) is invited.`}{' '}
          {invited.membership.id && (
            <Link component={RouterLink} to={`/ProjectMembership/${invited.membership.id}`}>
              Open the membership
            </Link>
          )}
        </Alert>
      )}
      <OutcomeForm
        label="Invite a user"
        form={form}
        alertFields={['resourceType']}
        submitLabel="Send invitation"
        validate={() => validateInvite(values)}
        action={invite}
      >
        <FormControl>
          <FormLabel id={roleLabelId}>Invite as</FormLabel>
          <RadioGroup
            row
            aria-labelledby={roleLabelId}
            name="resourceType"
            value={values.resourceType}
            onChange={(event) => set('resourceType', event.target.value as InviteRole)}
          >
            <FormControlLabel value="Practitioner" control={<Radio />} label="Practitioner" />
            <FormControlLabel value="Patient" control={<Radio />} label="Patient" />
          </RadioGroup>
        </FormControl>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {text('firstName', 'First name', 'off')}
          {text('lastName', 'Last name', 'off')}
        </Stack>
        {text('email', 'Email', 'off')}
        <PolicySelect
          value={values.accessPolicy}
          onChange={(id) => set('accessPolicy', id)}
          error={errors.membership}
        />
        <Box>
          <FormControlLabel
            control={
              <Checkbox checked={values.admin} onChange={(event) => set('admin', event.target.checked)} />
            }
            label="Project admin (manages memberships, policies, bots and applications)"
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={values.sendEmail}
                onChange={(event) => set('sendEmail', event.target.checked)}
              />
            }
            label="Send the invitation email"
          />
        </Box>
      </OutcomeForm>
    </>
  );
}

export default function InvitePage() {
  const client = useBloomClient();
  const projectId = client.getProject()?.id;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 4 } }}>
      <PageHeading title="Invite a user" />
      {client.isProjectAdmin() && projectId ? (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            A new person gets an email with a link to choose a password; someone who already has a Bloom
            account sees this project when they next sign in.
          </Typography>
          <InviteForm projectId={projectId} />
        </>
      ) : (
        <Alert severity="info">Only a project administrator can invite people to this project.</Alert>
      )}
    </Box>
  );
}
