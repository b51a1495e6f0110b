// Sign-in step 5 (SPEC §2): 'Choose scope', one checkbox per requested scope and Set scope.
// POST auth/scope {login, scope} (SPEC §7) with the checked scopes.
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import { JSON_CONTENT_TYPE, type LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBloomClient } from '../../session/BloomClientContext';

export function ChooseScopeStep({
  login,
  scopes,
  onResponse,
}: {
  readonly login: string;
  readonly scopes: readonly string[];
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set(scopes));
  const form = useOutcomeForm(['scope'] as const);

  function toggle(scope: string, on: boolean) {
    setChecked((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const scope = scopes.filter((s) => checked.has(s)).join(' ');
    await form.run(async () => {
      onResponse(
        await client.post<LoginAuthenticationResponse>('auth/scope', { login, scope }, JSON_CONTENT_TYPE),
      );
    });
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Choose scope">
      <Stack spacing={2}>
        <ErrorAlert message={form.message ?? form.fieldErrors.scope} />
        <FormGroup>
          {scopes.map((scope) => (
            <FormControlLabel
              key={scope}
              control={
                <Checkbox checked={checked.has(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
              }
              label={scope}
            />
          ))}
        </FormGroup>
        <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
          Set scope
        </Button>
      </Stack>
    </form>
  );
}
