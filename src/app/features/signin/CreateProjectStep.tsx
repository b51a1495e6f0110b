// Sign-in step 6 (SPEC §2): 'Create project' with Project Name, for a user without memberships.
// POST auth/newproject {login, projectName}; its errors name the firstName slot (SPEC §5), shown here
// under Project Name.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBloomClient } from '../../session/BloomClientContext';

export function CreateProjectStep({
  login,
  onResponse,
}: {
  readonly login: string;
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const [projectName, setProjectName] = useState('');
  const form = useOutcomeForm(['firstName'] as const);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (projectName.trim() === '') {
      form.setFieldErrors({ firstName: 'Project name is required' });
      return;
    }
    await form.run(async () => {
      onResponse(await client.startNewProject({ login, projectName: projectName.trim() }));
    });
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Create project">
      <Stack spacing={2.5}>
        <ErrorAlert message={form.message} />
        <TextField
          id="signin-project-name"
          name="projectName"
          label="Project Name"
          required
          fullWidth
          autoFocus
          value={projectName}
          onChange={(event) => setProjectName(event.target.value)}
          error={form.fieldErrors.firstName !== undefined}
          helperText={form.fieldErrors.firstName}
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
          Create project
        </Button>
      </Stack>
    </form>
  );
}
