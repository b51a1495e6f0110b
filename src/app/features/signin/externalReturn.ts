// Back from an external identity provider: the server's auth/external sends the
// browser to /signin with ?code= (signed in: the Success step exchanges it with processCode), ?login= (a
// step remains, e.g. MFA or choose profile: read with GET auth/login/{login}), or ?error= with
// ?error_description= (shown on the email step).
import { useEffect, useRef } from 'react';
import type { LoginAuthenticationResponse } from '../../../client';
import { operationOutcomeToString } from '../../../fhir/outcomes';
import { errorOutcome } from '../../api/errorOutcome';
import { useBloomClient } from '../../session/BloomClientContext';

export interface ExternalReturn {
  readonly code?: string;
  readonly login?: string;
  readonly error?: string;
}

export function readExternalReturn(params: URLSearchParams): ExternalReturn {
  const error = params.get('error_description') || params.get('error');
  if (error) return { error };
  const code = params.get('code');
  if (code) return { code };
  const login = params.get('login');
  return login ? { login } : {};
}

/** With a returned login and no code: asks the server for its next step, once. */
export function useExternalLoginStep(
  login: string | undefined,
  onResponse: (response: LoginAuthenticationResponse) => void,
  onError: (message: string) => void,
): void {
  const client = useBloomClient();
  const started = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice: the step is asked for once.
    if (!login || started.current) return;
    started.current = true;
    Promise.resolve(client.get<LoginAuthenticationResponse>(`auth/login/${encodeURIComponent(login)}`)).then(
      onResponse,
      (err: unknown) => onError(operationOutcomeToString(errorOutcome(err))),
    );
  }, [client, login, onResponse, onError]);
}
