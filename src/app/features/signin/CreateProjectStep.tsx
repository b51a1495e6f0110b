// Sign-in step 6 (SPEC §2): 'Create project' with Project Name, for a user without memberships.
// POST auth/newproject {login, projectName}; its errors name the firstName slot (SPEC §5), shown here
// under Project Name.
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';

export function CreateProjectStep({
  login,
  onResponse,
}: {
  readonly login: string;
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const t = useT();
  const [projectName, setProjectName] = useState('');
  const form = useOutcomeForm(['firstName'] as const);

  const validate = () =>
    projectName.trim() === '' ? { firstName: t(signinStrings.projectNameRequired) } : {};

  async function createProject() {
    onResponse(await client.startNewProject({ login, projectName: projectName.trim() }));
  }

  return (
    <OutcomeForm
      label={t(signinStrings.projectTitle)}
      form={form}
      submitLabel={t(signinStrings.projectTitle)}
      validate={validate}
      action={createProject}
    >
      <TextField
        id="signin-project-name"
        name="projectName"
        label={t(signinStrings.projectName)}
        required
        fullWidth
        autoFocus
        value={projectName}
        onChange={(event) => setProjectName(event.target.value)}
        {...fieldErrorProps(form.fieldErrors.firstName)}
      />
    </OutcomeForm>
  );
}
