// Sign-in step 5 (SPEC §2): 'Choose scope', one checkbox per requested scope and Set scope.
// POST auth/scope {login, scope} (SPEC §7) with the checked scopes.
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import { useState } from 'react';
import { JSON_CONTENT_TYPE, type LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';

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
  const t = useT();
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

  async function setScope() {
    const scope = scopes.filter((s) => checked.has(s)).join(' ');
    onResponse(
      await client.post<LoginAuthenticationResponse>('auth/scope', { login, scope }, JSON_CONTENT_TYPE),
    );
  }

  return (
    <OutcomeForm
      label={t(signinStrings.scopeTitle)}
      form={form}
      alertFields={['scope']}
      submitLabel={t(signinStrings.setScope)}
      spacing={2}
      action={setScope}
    >
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
    </OutcomeForm>
  );
}
