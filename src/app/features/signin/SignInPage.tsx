// The sign-in flow of SPEC §2 "Login flow screens" and SPEC §4 Login: email → password → (MFA code) →
// (choose profile | create project) → (choose scope) → Success, then the code is exchanged for tokens
// (processCode) and the app goes to /. A `?scope=a b c` in the URL turns on the scope choice.
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { LoginAuthenticationResponse } from '../../../client';
import { AuthFormCard } from '../../components/AuthFormCard';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ChooseProfileStep } from './ChooseProfileStep';
import { ChooseScopeStep } from './ChooseScopeStep';
import { CreateProjectStep } from './CreateProjectStep';
import { EmailStep } from './EmailStep';
import { readExternalReturn, useExternalLoginStep } from './externalReturn';
import { nextStep, type SignInStep } from './loginSteps';
import { MfaStep } from './MfaStep';
import { PasswordStep } from './PasswordStep';
import { SuccessStep } from './SuccessStep';

const titles: Record<SignInStep['kind'], { title: string; subtitle?: string; width: 400 | 450 }> = {
  email: { title: 'Sign in to Bloom', subtitle: 'Enter your email to continue.', width: 400 },
  password: { title: 'Sign in to Bloom', subtitle: 'Enter your password.', width: 400 },
  mfa: { title: 'Enter MFA code', subtitle: 'Open your authenticator app.', width: 400 },
  profile: { title: 'Choose profile', width: 450 },
  scope: { title: 'Choose scope', width: 450 },
  project: { title: 'Create project', width: 450 },
  success: { title: 'Success', width: 400 },
};

export function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const scope = params.get('scope')?.trim() || undefined;
  const scopes = scope ? scope.split(/\s+/) : [];
  // Back from an external identity provider: its code, its pending login or its error.
  const [external] = useState(() => readExternalReturn(params));
  const [externalError, setExternalError] = useState(external.error);
  const [step, setStep] = useState<SignInStep>(
    external.code ? { kind: 'success', code: external.code } : { kind: 'email' },
  );
  const [scopeChosen, setScopeChosen] = useState(false);

  function handleResponse(response: LoginAuthenticationResponse, afterScope = scopeChosen) {
    setStep(nextStep(response, scopes.length > 0 && !afterScope));
  }

  useExternalLoginStep(
    external.login,
    useCallback((response: LoginAuthenticationResponse) => setStep(nextStep(response, false)), []),
    setExternalError,
  );

  const { title, subtitle, width } = titles[step.kind];
  return (
    <AuthFormCard title={title} subtitle={subtitle} width={width}>
      <title>Sign in · Bloom</title>
      {step.kind === 'email' && <ErrorAlert message={externalError} />}
      {step.kind === 'email' && (
        <EmailStep showRegister onPassword={(email) => setStep({ kind: 'password', email })} />
      )}
      {step.kind === 'password' && (
        <PasswordStep
          email={step.email}
          scope={scope}
          onResponse={(response) => handleResponse(response)}
          onChangeEmail={() => setStep({ kind: 'email' })}
        />
      )}
      {step.kind === 'mfa' && (
        <MfaStep login={step.login} onResponse={(response) => handleResponse(response)} />
      )}
      {step.kind === 'profile' && (
        <ChooseProfileStep
          login={step.login}
          memberships={step.memberships}
          onResponse={(response) => handleResponse(response)}
        />
      )}
      {step.kind === 'project' && (
        <CreateProjectStep login={step.login} onResponse={(response) => handleResponse(response)} />
      )}
      {step.kind === 'scope' && (
        <ChooseScopeStep
          login={step.login}
          scopes={scopes}
          onResponse={(response) => {
            setScopeChosen(true);
            handleResponse(response, true);
          }}
        />
      )}
      {step.kind === 'success' && (
        <SuccessStep code={step.code} onDone={() => navigate('/', { replace: true })} />
      )}
    </AuthFormCard>
  );
}
