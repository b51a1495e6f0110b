// reCAPTCHA on registration: when a secret is
// configured, the app's recaptchaToken is checked with Google's siteverify (RECAPTCHA_VERIFY_URL, so
// tests answer on loopback) before anything is created. Without a secret, registration is unchecked.
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerConfig } from '../config';
import type { Fields } from './request-fields';
import { fieldError, optionalString } from './request-fields';

const VERIFY_TIMEOUT_MS = 10_000;

interface SiteVerifyResponse {
  success?: unknown;
}

async function siteVerify(
  config: ServerConfig,
  secret: string,
  token: string,
  remoteIp?: string,
): Promise<boolean> {
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) {
    form.set('remoteip', remoteIp);
  }
  let response: Response;
  try {
    response = await fetch(config.recaptchaVerifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch {
    throw new OperationOutcomeError(badRequest('Recaptcha could not be verified: try again later'));
  }
  if (!response.ok) {
    return false;
  }
  const body = (await response.json().catch(() => ({}))) as SiteVerifyResponse;
  return body.success === true;
}

/** Throws a 400 unless reCAPTCHA is off or the request's token passes it. */
export async function checkRecaptcha(config: ServerConfig, fields: Fields, remoteIp?: string): Promise<void> {
  const secret = config.recaptchaSecretKey;
  if (!secret) {
    return;
  }
  const siteKey = optionalString(fields, 'recaptchaSiteKey', 256);
  if (siteKey && config.recaptchaSiteKey && siteKey !== config.recaptchaSiteKey) {
    throw fieldError('Invalid recaptchaSiteKey', 'recaptchaSiteKey');
  }
  const token = optionalString(fields, 'recaptchaToken', 4096);
  if (!token) {
    throw fieldError('Recaptcha token is required', 'recaptchaToken');
  }
  if (!(await siteVerify(config, secret, token, remoteIp))) {
    throw fieldError('Recaptcha failed', 'recaptchaToken');
  }
}
