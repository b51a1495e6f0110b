// The session of SPEC §4: holds the active login, calls the token endpoint, refreshes before expiry
// and on a 401 (refresh token, else client credentials), and gives up with 'Unauthenticated'.
// One refresh at a time: every caller that needs one shares the same in-flight promise.
import type { Reference } from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest } from '../fhir/outcomes';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { checkToken, isJwt, parseJwtPayload } from './jwt';
import type { FetchLike } from './settings';
import { ACTIVE_LOGIN_KEY, LOGINS_KEY } from './storage';
import type { ClientStorage, LoginState } from './storage';

/** The token endpoint's answer (Medplum's, ARCHITECTURE.md). */
export interface TokenResponse {
  token_type?: string;
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  id_token?: string;
  scope?: string;
  project?: Reference;
  profile?: Reference;
}

export const OAUTH_GRANT_TYPE = {
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  clientCredentials: 'client_credentials',
  jwtBearer: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
  tokenExchange: 'urn:ietf:params:oauth:grant-type:token-exchange',
} as const;

/** Refresh this long before the access token expires (Medplum's grace period). */
export const DEFAULT_REFRESH_GRACE_PERIOD = 5 * 60 * 1000;

const unauthenticatedOutcome: OperationOutcome = {
  resourceType: 'OperationOutcome',
  id: 'unauthorized',
  issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthenticated' } }],
};

/** The error every request rejects with once the session cannot be restored (SPEC §4, §8). */
export function unauthenticatedError(cause?: unknown): OperationOutcomeError {
  return new OperationOutcomeError(unauthenticatedOutcome, cause);
}

/**
 * Runs `fn` while holding a lock shared by every tab of the origin (the Web Locks API in browsers),
 * so two tabs never refresh the same login at once.
 */
export type RefreshLock = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export const REFRESH_LOCK_NAME = 'bloom-token-refresh';

interface LockManagerLike {
  request<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** navigator.locks where there is one (browsers); elsewhere one process has one client, no lock. */
export function defaultRefreshLock(): RefreshLock {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (locks && typeof locks.request === 'function') {
    return (name, fn) => locks.request(name, fn);
  }
  return (_name, fn) => fn();
}

export interface TokenManagerOptions {
  fetch: FetchLike;
  tokenUrl: string;
  storage: ClientStorage;
  clientId?: string;
  clientSecret?: string;
  refreshGracePeriod?: number;
  now?: () => number;
  /** Called once each time the session is lost for good (SPEC §4 "unauthenticated handler"). */
  onUnauthenticated?: () => void;
  /** Called whenever the active login is set, replaced or cleared. */
  onLoginChange?: (login: LoginState | undefined) => void;
  /** Cross-tab lock around refreshes (default: navigator.locks when present). */
  lock?: RefreshLock;
}

function encodeBasic(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  return btoa(String.fromCharCode(...bytes));
}

export class TokenManager {
  private readonly fetch: FetchLike;
  private readonly tokenUrl: string;
  private readonly storage: ClientStorage;
  private readonly gracePeriod: number;
  private readonly now: () => number;
  private readonly onUnauthenticated?: () => void;
  /** Called whenever the active login is set, replaced or cleared (settable: the client wires it after construction). */
  onLoginChange?: (login: LoginState | undefined) => void;
  private readonly lock: RefreshLock;
  private login: LoginState | undefined;
  private accessTokenExpires: number | undefined;
  private accessTokenIssued: number | undefined;
  private refreshPromise: Promise<void> | undefined;
  private basicAuth: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;

  constructor(options: TokenManagerOptions) {
    this.fetch = options.fetch;
    this.tokenUrl = options.tokenUrl;
    this.storage = options.storage;
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.gracePeriod = options.refreshGracePeriod ?? DEFAULT_REFRESH_GRACE_PERIOD;
    this.now = options.now ?? Date.now;
    this.onUnauthenticated = options.onUnauthenticated;
    this.onLoginChange = options.onLoginChange;
    this.lock = options.lock ?? defaultRefreshLock();
    const stored = this.storage.getObject<LoginState>(ACTIVE_LOGIN_KEY);
    if (stored && typeof stored.accessToken === 'string') {
      this.useLogin(stored);
    }
  }

  getActiveLogin(): LoginState | undefined {
    return this.login;
  }

  getAccessToken(): string | undefined {
    return this.login?.accessToken;
  }

  getRefreshToken(): string | undefined {
    return this.login?.refreshToken;
  }

  /** Every login this storage has held, one per profile (Medplum's getLogins). */
  getLogins(): LoginState[] {
    return this.storage.getObject<LoginState[]>(LOGINS_KEY) ?? [];
  }

  /** When the access token expires (ms), if it is a JWT with an exp claim. */
  getAccessTokenExpires(): number | undefined {
    return this.accessTokenExpires;
  }

  /** The Authorization header for API requests: the bearer token, else basic auth, else none. */
  getAuthorizationHeader(): string | undefined {
    if (this.login) {
      return `Bearer ${this.login.accessToken}`;
    }
    return this.basicAuth ? `Basic ${this.basicAuth}` : undefined;
  }

  setBasicAuth(clientId: string, clientSecret: string): void {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.basicAuth = encodeBasic(clientId, clientSecret);
  }

  setActiveLogin(login: LoginState): void {
    this.useLogin(login);
    this.storage.setObject(ACTIVE_LOGIN_KEY, login);
    const others = this.getLogins().filter(
      (l) =>
        !(
          l.profile?.reference === login.profile?.reference &&
          l.project?.reference === login.project?.reference
        ),
    );
    this.storage.setObject(LOGINS_KEY, [...others, login]);
    this.onLoginChange?.(login);
  }

  /** Takes tokens another tab wrote to the shared storage, without writing them back. */
  adoptLogin(login: LoginState): void {
    this.useLogin(login);
    this.onLoginChange?.(login);
  }

  clearActiveLogin(): void {
    const hadLogin = this.login !== undefined;
    this.login = undefined;
    this.accessTokenExpires = undefined;
    this.accessTokenIssued = undefined;
    this.storage.setObject(ACTIVE_LOGIN_KEY, undefined);
    if (hadLogin) {
      this.onLoginChange?.(undefined);
    }
  }

  /** Forgets credentials too (sign out). */
  clearCredentials(): void {
    this.basicAuth = undefined;
  }

  private useLogin(login: LoginState): void {
    this.login = login;
    this.accessTokenExpires = undefined;
    this.accessTokenIssued = undefined;
    if (isJwt(login.accessToken)) {
      try {
        const { exp, iat } = parseJwtPayload(login.accessToken);
        this.accessTokenExpires = typeof exp === 'number' ? exp * 1000 : undefined;
        this.accessTokenIssued = typeof iat === 'number' ? iat * 1000 : undefined;
      } catch {
        // An unreadable stored token: the server will answer 401 and the 401 rules apply.
      }
    }
  }

  /**
   * POSTs a form to the token endpoint and makes the answer the active login. A refused request
   * or an unusable token clears the login (SPEC §4) and rejects with the server's
   * error_description, or 'Failed to fetch tokens' when it gives none (SPEC §8).
   */
  async fetchTokens(form: URLSearchParams): Promise<TokenResponse> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    };
    if (this.basicAuth) {
      headers.Authorization = `Basic ${this.basicAuth}`;
    }
    const response = await this.fetch(this.tokenUrl, { method: 'POST', headers, body: form.toString() });
    const body = (await response.json().catch(() => undefined)) as
      (Partial<TokenResponse> & { error_description?: unknown }) | undefined;
    if (!response.ok || typeof body?.access_token !== 'string' || body.access_token === '') {
      this.clearActiveLogin();
      const description = body?.error_description;
      const usable = !response.ok && typeof description === 'string' && description.trim() !== '';
      throw new OperationOutcomeError(badRequest(usable ? description : 'Failed to fetch tokens'));
    }
    try {
      checkToken(body.access_token, { clientId: form.get('client_id') ?? this.clientId, now: this.now() });
    } catch (err) {
      this.clearActiveLogin();
      throw new OperationOutcomeError(badRequest((err as Error).message), err);
    }
    const tokens = body as TokenResponse;
    this.setActiveLogin({
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      project: tokens.project,
      profile: tokens.profile,
    });
    return tokens;
  }

  /** The form that renews the session: refresh token first, else client credentials (SPEC §4). */
  private renewalForm(): URLSearchParams | undefined {
    if (this.basicAuth) {
      // Basic auth goes with every request; there is nothing to renew.
      return undefined;
    }
    const refreshToken = this.login?.refreshToken;
    if (refreshToken) {
      const form = new URLSearchParams({
        grant_type: OAUTH_GRANT_TYPE.refreshToken,
        refresh_token: refreshToken,
      });
      if (this.clientId) {
        form.set('client_id', this.clientId);
      }
      if (this.clientId && this.clientSecret) {
        form.set('client_secret', this.clientSecret);
      }
      return form;
    }
    if (this.clientId && this.clientSecret) {
      return new URLSearchParams({
        grant_type: OAUTH_GRANT_TYPE.clientCredentials,
        client_id: this.clientId,
        client_secret: this.clientSecret,
      });
    }
    return undefined;
  }

  /** Clears the login, tells the app once, and returns the error to reject with. */
  private giveUp(cause?: unknown): OperationOutcomeError {
    this.clearActiveLogin();
    this.onUnauthenticated?.();
    return unauthenticatedError(cause);
  }

  /**
   * Renews the session, sharing one token call among all callers. A refused renewal gives up
   * (clear, handler, 'Unauthenticated'); a network failure rejects as it is and keeps the login.
   */
  private renew(): Promise<void> {
    if (this.refreshPromise) {
      return this.refreshPromise;
    }
    if (!this.renewalForm()) {
      return Promise.reject(this.giveUp());
    }
    const pending = this.lock(REFRESH_LOCK_NAME, () => this.renewHoldingLock()).then(
      () => undefined,
      (err: unknown) => {
        throw err instanceof OperationOutcomeError ? this.giveUp(err) : err;
      },
    );
    this.refreshPromise = pending;
    const forget = (): void => {
      if (this.refreshPromise === pending) {
        this.refreshPromise = undefined;
      }
    };
    pending.then(forget, forget);
    return pending;
  }

  private async renewHoldingLock(): Promise<void> {
    // Another tab may have refreshed while we waited for the lock: take its tokens instead of
    // spending our (now rotated-away) refresh token, which the server would treat as reuse.
    if (this.adoptNewerStoredLogin() && !this.isExpiring()) {
      return;
    }
    const form = this.renewalForm();
    if (!form) {
      throw unauthenticatedError();
    }
    await this.fetchTokens(form);
  }

  /** Takes the stored login when it is the same person's with other tokens; true when it did. */
  private adoptNewerStoredLogin(): boolean {
    const stored = this.storage.getObject<LoginState>(ACTIVE_LOGIN_KEY);
    const current = this.login;
    if (
      !stored ||
      !current ||
      typeof stored.accessToken !== 'string' ||
      stored.accessToken === current.accessToken ||
      stored.profile?.reference !== current.profile?.reference ||
      stored.project?.reference !== current.project?.reference
    ) {
      return false;
    }
    this.adoptLogin(stored);
    return true;
  }

  private isExpiring(): boolean {
    return (
      this.accessTokenExpires !== undefined && this.now() >= this.accessTokenExpires - this.refreshMargin()
    );
  }

  /** How early to refresh: the grace period, but never more than half the token's lifetime. */
  private refreshMargin(): number {
    if (this.accessTokenExpires !== undefined && this.accessTokenIssued !== undefined) {
      return Math.min(this.gracePeriod, (this.accessTokenExpires - this.accessTokenIssued) / 2);
    }
    return this.gracePeriod;
  }

  /** Before each request: waits for a refresh in flight, or starts one when the token is about to expire. */
  async refreshIfExpiring(): Promise<void> {
    if (this.refreshPromise) {
      await this.refreshPromise;
      return;
    }
    if (this.login && this.isExpiring() && this.renewalForm()) {
      await this.renew();
    }
  }

  /**
   * After a 401 answered a request sent with `usedAuthorization`. Resolves when the request may be
   * retried with new credentials; rejects with 'Unauthenticated' when the session is lost.
   */
  async handleUnauthorized(usedAuthorization: string | undefined): Promise<void> {
    if (this.refreshPromise) {
      await this.refreshPromise;
      return;
    }
    const current = this.getAuthorizationHeader();
    if (current !== undefined && current !== usedAuthorization) {
      // Somebody renewed the session while this request was out: just retry with the new token.
      return;
    }
    if (current === undefined && usedAuthorization !== undefined) {
      // Another request already gave up on this session and told the app.
      throw unauthenticatedError();
    }
    await this.renew();
  }

  /** A second 401 right after a renewal: stop, no endless loop. */
  rejectAfterRetry(): OperationOutcomeError {
    return this.giveUp();
  }
}
