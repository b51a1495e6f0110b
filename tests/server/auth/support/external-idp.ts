// Starts the real OpenID provider of external-idp.mjs on a free loopback port, and drives its sign-in
// over plain HTTP with a small cookie jar, as a browser would: authorize → interaction (login) →
// interaction (consent) → back to the redirect_uri with code and state.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { findTestPort } from '../../../support/test-port';

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
  grant_types?: string[];
  response_types?: string[];
}

export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
}

export interface RunningIdp {
  issuer: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  stop(): Promise<void>;
}

const SCRIPT = path.join(__dirname, 'external-idp.mjs');

export async function startExternalIdp(
  clients: IdpClient[],
  accounts: Record<string, IdpAccount>,
): Promise<RunningIdp> {
  const port = await findTestPort('localhost');
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, JSON.stringify({ port, clients, accounts })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`OpenID provider did not start: ${stderr}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /READY (\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`OpenID provider exited (${code}): ${stderr}`));
    });
  });
  return {
    issuer,
    authorizeUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    userInfoUrl: `${issuer}/me`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Name → value of the cookies the provider set, dropping the ones it expires. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((attribute) => {
        const [key, raw] = attribute.split('=');
        return (
          (key.toLowerCase() === 'expires' && Date.parse(raw) <= Date.now()) ||
          (key.toLowerCase() === 'max-age' && Number(raw) <= 0)
        );
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface ProviderSignIn {
  /** The account that signs in at the login prompt. */
  account: string;
  /** Refuse at the login prompt instead (the provider answers error=access_denied). */
  abort?: boolean;
}

/**
 * From the provider's authorize URL to the address it finally sends the browser to (our callback):
 * each interaction page is read, then answered with the login or consent form.
 */
export async function signInAtProvider(authorizeUrl: string, options: ProviderSignIn): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizeUrl);
  const origin = url.origin;
  for (let hops = 0; hops < 20; hops += 1) {
    if (url.origin !== origin) return url;
    const interaction = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    let response: Response;
    if (interaction) {
      const page = await fetch(url, { headers: { cookie: jar.header() } });
      jar.store(page);
      const { prompt } = (await page.json()) as { prompt: string };
      const action = options.abort ? 'abort' : prompt === 'login' ? 'login' : 'confirm';
      response = await fetch(`${url.href}/${action}`, {
        method: 'POST',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(action === 'login' ? { account: options.account } : {}).toString(),
        redirect: 'manual',
      });
    } else {
      response = await fetch(url, { headers: { cookie: jar.header() }, redirect: 'manual' });
    }
    jar.store(response);
    const location = response.headers.get('location');
    if (!location) {
      throw new Error(`The provider stopped at ${url.href}: ${response.status} ${await response.text()}`);
    }
    url = new URL(location, url);
  }
  throw new Error('Too many redirects at the provider');
}
