// The sign-in flow of SPEC §2 "Login flow screens" and SPEC §4 Login: email → password → (MFA code) →
// (choose profile | create project) → (choose scope) → Success, then the code is exchanged for tokens
// (processCode) and the app goes to /. A `?scope=a b c` in the URL turns on the scope choice.
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { LoginAuthenticationResponse } from '../../../client';
import { AuthFormCard } from '../../components/AuthFormCard';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { Message } from '../../i18n/catalog';
import { useT } from '../../i18n/LocaleProvider';
import { ChooseProfileStep } from './ChooseProfileStep';
import { ChooseScopeStep } from './ChooseScopeStep';
import { CreateProjectStep } from './CreateProjectStep';
import { EmailStep } from './EmailStep';
import { readExternalReturn, useExternalLoginStep } from './externalReturn';
import { nextStep, type SignInStep } from './loginSteps';
import { MfaStep } from './MfaStep';
import { PasswordStep } from './PasswordStep';
import { LanguageChoice } from '../../components/LanguageChoice';
import { signinStrings as s } from './strings';
import { SuccessStep } from './SuccessStep';

const titles: Record<SignInStep['kind'], { title: Message; subtitle?: Message; width: 400 | 450 }> = {
  email: { title: s.title, subtitle: s.emailSubtitle, width: 400 },
  password: { title: s.title, subtitle: s.passwordSubtitle, width: 400 },
  mfa: { title: s.mfaTitle, subtitle: s.mfaSubtitle, width: 400 },
  profile: { title: s.profileTitle, width: 450 },
  scope: { title: s.scopeTitle, width: 450 },
  project: { title: s.projectTitle, width: 450 },
  success: { title: s.successTitle, width: 400 },
};

export function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useT();
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
    <AuthFormCard title={t(title)} subtitle={subtitle && t(subtitle)} width={width}>
      <title>{t(s.pageTitle)}</title>
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
      {step.kind === 'email' && <LanguageChoice label={t(s.language)} justify="center" />}
    </AuthFormCard>
  );
}
