// BloomClient: a small facade over the client's parts (settings, storage, PKCE, token manager,
// request pipeline, events), with @medplum/core MedplumClient's method names and payloads for
// the sign-in flows of SPEC §4, §6 and §7 Authentication.
import type {
  AccessPolicy,
  Communication,
  Encounter,
  Patient,
  Project,
  ProjectMembership,
  Reference,
  Resource,
  Subscription,
  UserConfiguration,
} from '@medplum/fhirtypes';
import { createReference } from '../fhir/references';
import type {
  BaseLoginRequest,
  EmailPasswordLoginRequest,
  GoogleLoginRequest,
  LoginAuthenticationResponse,
  NewPatientRequest,
  NewProjectRequest,
  NewUserRequest,
  ProfileResource,
  SessionDetails,
} from './auth-types';
import { PlatformClient } from './platform-client';
import type { RequestOptions } from './request';
import * as fhircast from './fhircast';
import type { FhircastConnectionHandlers, FhircastCurrentContext, WebSocketFactory } from './fhircast';
import type { FhircastMessage, FhircastSubscriptionRequest } from '../fhir/fhircast';
import type { PlatformClientOptions } from './platform-client';
import { createPkcePair, getRandomString } from './pkce';
import { JSON_CONTENT_TYPE } from './request';
import { detectEnvironment, resolveSettings } from './settings';
import type { ClientOptions, ClientSettings } from './settings';
import { ACTIVE_LOGIN_KEY, createDefaultStorage, watchActiveLogin } from './storage';
import { SubscriptionManager } from './subscriptions';
import type { SubscriptionEmitter, SubscriptionManagerOptions } from './subscriptions';
import type { ClientStorage, LoginState, StorageEventSource } from './storage';
import { OAUTH_GRANT_TYPE, TokenManager } from './token-manager';

/** The parts of window.location the redirect flows use; injectable for tests. */
export interface NavigationLike {
  readonly origin: string;
  readonly search: string;
  assign(url: string): void;
  reload(): void;
}

export interface BloomClientOptions extends ClientOptions, PlatformClientOptions {
  /** Called once when the session is lost for good (SPEC §4); the app sends the browser to /. */
  onUnauthenticated?: () => void;
  /** Called when another tab switches or clears the active login; reloads the page by default. */
  onActiveLoginChange?: () => void;
  /** Source of storage events from other tabs: window in a browser. */
  storageEvents?: StorageEventSource;
  /** window.location in a browser. */
  navigation?: NavigationLike;
  /** Refresh the access token this long before it expires (default 5 minutes). */
  refreshGracePeriod?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** Live subscriptions: the WebSocket to use (Node 20: `ws`), backoff, ping. */
  subscriptions?: SubscriptionManagerOptions;
}

/** Where the live-subscription socket is, under the base URL (SPEC §7 live updates). */
export const SUBSCRIPTIONS_WS_PATH = 'ws/subscriptions-r4';

const PKCE_STATE_KEY = 'pkceState';
const CODE_VERIFIER_KEY = 'codeVerifier';
const CODE_CHALLENGE_KEY = 'codeChallenge';
const TOKEN_EXCHANGE_SUBJECT_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const DEFAULT_SCOPE = 'openid profile';
const DEFAULT_EXTERNAL_SCOPE = 'openid profile email';

function missing(what: string): Error {
  // SPEC §5: "A token client needs a clientId (error says the client is missing clientId)".
  return new Error(`BloomClient is missing ${what}`);
}

export class BloomClient extends PlatformClient {
  private readonly storage: ClientStorage;
  private readonly tokens: TokenManager;
  private readonly navigation: NavigationLike | undefined;
  private readonly stopWatchingStorage: (() => void) | undefined;
  private sessionDetails: SessionDetails | undefined;
  private profilePromise: Promise<ProfileResource | undefined> | undefined;
  private subscriptionManager: SubscriptionManager | undefined;
  private readonly subscriptionOptions: SubscriptionManagerOptions | undefined;

  constructor(options: BloomClientOptions = {}) {
    const environment = detectEnvironment();
    const settings = resolveSettings(options, environment);
    const storage = options.storage ?? createDefaultStorage(environment.isBrowser);
    const tokens = new TokenManager({
      fetch: settings.fetch,
      tokenUrl: settings.tokenUrl,
      storage,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      refreshGracePeriod: options.refreshGracePeriod,
      now: options.now,
      onUnauthenticated: options.onUnauthenticated,
    });
    // The FHIR and platform calls, cache, batcher and request pipeline (platform-client.ts, fhir-client.ts).
    super(settings, tokens, {
      createPdf: options.createPdf,
      createXhr: options.createXhr,
      now: options.now,
      hooks: options.hooks,
    });
    this.storage = storage;
    this.tokens = tokens;
    this.subscriptionOptions = options.subscriptions;
    tokens.onLoginChange = (login) => this.handleLoginChange(login);
    const g = globalThis as { location?: NavigationLike; window?: StorageEventSource };
    this.navigation = options.navigation ?? (environment.isBrowser ? g.location : undefined);

    const storageEvents = options.storageEvents ?? (environment.isBrowser ? g.window : undefined);
    const onSwitch = options.onActiveLoginChange ?? (() => this.navigation?.reload());
    this.stopWatchingStorage = storageEvents
      ? watchActiveLogin(
          storageEvents,
          this.storage.backendKey(ACTIVE_LOGIN_KEY),
          () => this.tokens.getActiveLogin(),
          (change) => (change.kind === 'tokens' ? this.tokens.adoptLogin(change.login) : onSwitch()),
        )
      : undefined;

    if (this.tokens.getActiveLogin()) {
      // A login survived from an earlier page load: load its session in the background.
      this.profilePromise = this.reloadProfile().catch(() => undefined);
    }
  }

  /** Stops listening to other tabs and closes the live-subscription socket. */
  close(): void {
    this.stopWatchingStorage?.();
    this.subscriptionManager?.closeWebSocket();
  }

  // ---- settings and URLs ----

  getBaseUrl(): string {
    return this.settings.baseUrl;
  }

  getAuthorizeUrl(): string {
    return this.settings.authorizeUrl;
  }

  getTokenUrl(): string {
    return this.settings.tokenUrl;
  }

  getLogoutUrl(): string {
    return this.settings.logoutUrl;
  }

  getSettings(): Readonly<ClientSettings> {
    return this.settings;
  }

  // The app's auth screens post to auth/* with post(); get/post/request come from FhirClient (fhir-client.ts).

  private postJson<T>(url: string, body: unknown): Promise<T> {
    return this.post<T>(url, body, JSON_CONTENT_TYPE);
  }

  // ---- session state ----

  getActiveLogin(): LoginState | undefined {
    return this.tokens.getActiveLogin();
  }

  setActiveLogin(login: LoginState): Promise<ProfileResource | undefined> {
    this.tokens.setActiveLogin(login);
    return this.reloadProfile();
  }

  getLogins(): LoginState[] {
    return this.tokens.getLogins();
  }

  getAccessToken(): string | undefined {
    return this.tokens.getAccessToken();
  }

  getRefreshToken(): string | undefined {
    return this.tokens.getRefreshToken();
  }

  /**
   * MedplumClient's refreshIfExpired: renews the session when the access token is about to expire,
   * or waits for a renewal in flight (the GraphQL socket calls it before it connects).
   */
  refreshIfExpired(): Promise<void> {
    return this.tokens.refreshIfExpiring();
  }

  /** Signed in with a token that has not expired (or whose expiry cannot be read). */
  isAuthenticated(): boolean {
    if (!this.tokens.getAccessToken()) {
      return false;
    }
    const expires = this.tokens.getAccessTokenExpires();
    return expires === undefined || Date.now() < expires;
  }

  getProfile(): ProfileResource | undefined {
    return this.sessionDetails?.profile;
  }

  /** The profile once the session in flight (if any) has loaded. */
  async getProfileAsync(): Promise<ProfileResource | undefined> {
    if (this.profilePromise) {
      await this.profilePromise;
    }
    return this.getProfile();
  }

  getProject(): Project | undefined {
    return this.sessionDetails?.project;
  }

  getProjectMembership(): ProjectMembership | undefined {
    return this.sessionDetails?.membership;
  }

  getUserConfiguration(): UserConfiguration | undefined {
    return this.sessionDetails?.config;
  }

  getAccessPolicy(): AccessPolicy | undefined {
    return this.sessionDetails?.accessPolicy;
  }

  /** SPEC §6: the project flag superAdmin. */
  isSuperAdmin(): boolean {
    return this.sessionDetails?.project?.superAdmin === true;
  }

  /** SPEC §6: the membership flag admin. */
  isProjectAdmin(): boolean {
    return this.sessionDetails?.membership?.admin === true;
  }

  /**
   * MedplumClient's createComment: a 'completed' Communication based on `resource`, sent now by the
   * signed-in profile, with `text` as its payload; on an Encounter or ServiceRequest it carries their
   * encounter and subject, on a Patient that patient as subject.
   */
  createComment(resource: Resource, text: string, options?: RequestOptions): Promise<Communication> {
    const profile = this.getProfile();
    let encounter: Reference<Encounter> | undefined;
    let subject: Reference<Patient> | undefined;
    if (resource.resourceType === 'Encounter') {
      encounter = createReference(resource);
      subject = resource.subject as Reference<Patient> | undefined;
    } else if (resource.resourceType === 'ServiceRequest') {
      encounter = resource.encounter;
      subject = resource.subject as Reference<Patient> | undefined;
    } else if (resource.resourceType === 'Patient') {
      subject = createReference(resource);
    }
    return this.createResource<Communication>(
      {
        resourceType: 'Communication',
        status: 'completed',
        basedOn: [createReference(resource)],
        encounter,
        subject,
        // Any profile, as in Medplum (a Bot or ClientApplication is outside Communication.sender's types).
        sender: profile ? (createReference(profile) as Communication['sender']) : undefined,
        sent: new Date().toISOString(),
        payload: [{ contentString: text }],
      },
      options,
    );
  }

  /** GET auth/me: the session details of SPEC §3, without keeping them. */
  getMe(): Promise<SessionDetails> {
    return this.get<SessionDetails>('auth/me', { cache: 'no-cache' });
  }

  /** Reloads the session details and announces them ('profileRefreshed'). */
  reloadProfile(): Promise<ProfileResource | undefined> {
    const pending = this.getMe().then((details) => {
      this.sessionDetails = details;
      this.dispatchEvent({ type: 'profileRefreshed' });
      return details.profile;
    });
    this.profilePromise = pending;
    return pending;
  }

  private handleLoginChange(login: LoginState | undefined): void {
    const profile = this.sessionDetails?.profile;
    const sameProfile =
      login?.profile?.reference !== undefined &&
      profile !== undefined &&
      login.profile.reference === `${profile.resourceType}/${profile.id}`;
    if (!sameProfile) {
      // Another person's session: nothing cached for the previous one may be served.
      this.sessionDetails = undefined;
      this.invalidateAll();
    }
    this.dispatchEvent({ type: 'change' });
  }

  // ---- PKCE (SPEC §9) ----

  /** Makes a new PKCE pair and OAuth state, keeping the verifier and state in storage for later. */
  async startPkce(): Promise<Required<Pick<BaseLoginRequest, 'codeChallenge' | 'codeChallengeMethod'>>> {
    this.storage.setString(PKCE_STATE_KEY, getRandomString());
    const { codeVerifier, codeChallenge, codeChallengeMethod } = await createPkcePair();
    this.storage.setString(CODE_VERIFIER_KEY, codeVerifier);
    this.storage.setString(CODE_CHALLENGE_KEY, codeChallenge);
    return { codeChallenge, codeChallengeMethod };
  }

  /** A login request as given when it brings its own challenge, else with a fresh PKCE pair. */
  async ensureCodeChallenge<T extends BaseLoginRequest>(loginRequest: T): Promise<T> {
    if (loginRequest.codeChallenge) {
      return loginRequest;
    }
    return { ...loginRequest, ...(await this.startPkce()) };
  }

  // ---- password sign-in and registration (SPEC §4 Login, §7) ----

  async startLogin(loginRequest: EmailPasswordLoginRequest): Promise<LoginAuthenticationResponse> {
    const request = await this.ensureCodeChallenge(loginRequest);
    return this.postJson('auth/login', {
      ...request,
      clientId: loginRequest.clientId ?? this.tokens.clientId,
      scope: loginRequest.scope,
    });
  }

  /** POST auth/google with the Google ID token (SPEC §7), the same PKCE as a password sign-in. */
  async startGoogleLogin(loginRequest: GoogleLoginRequest): Promise<LoginAuthenticationResponse> {
    const request = await this.ensureCodeChallenge(loginRequest);
    return this.postJson('auth/google', {
      ...request,
      clientId: loginRequest.clientId ?? this.tokens.clientId,
    });
  }

  async startNewUser(newUserRequest: NewUserRequest): Promise<LoginAuthenticationResponse> {
    const { codeChallenge, codeChallengeMethod } = await this.startPkce();
    return this.postJson('auth/newuser', {
      ...newUserRequest,
      clientId: newUserRequest.clientId ?? this.tokens.clientId,
      codeChallengeMethod,
      codeChallenge,
    });
  }

  startNewProject(newProjectRequest: NewProjectRequest): Promise<LoginAuthenticationResponse> {
    return this.postJson('auth/newproject', newProjectRequest);
  }

  startNewPatient(newPatientRequest: NewPatientRequest): Promise<LoginAuthenticationResponse> {
    return this.postJson('auth/newpatient', newPatientRequest);
  }

  /** Exchanges the code at the end of a sign-in for tokens (with the stored PKCE verifier), then loads the session. */
  async processCode(
    code: string,
    loginParams?: Partial<BaseLoginRequest>,
  ): Promise<ProfileResource | undefined> {
    const form = new URLSearchParams({ grant_type: OAUTH_GRANT_TYPE.authorizationCode, code });
    const clientId = loginParams?.clientId ?? this.tokens.clientId;
    if (clientId) {
      form.set('client_id', clientId);
    }
    const redirectUri = loginParams?.redirectUri ?? this.navigation?.origin;
    if (redirectUri) {
      form.set('redirect_uri', redirectUri);
    }
    const codeVerifier = this.storage.getString(CODE_VERIFIER_KEY);
    if (codeVerifier) {
      form.set('code_verifier', codeVerifier);
    }
    await this.tokens.fetchTokens(form);
    // A verifier serves one code.
    this.storage.setString(CODE_VERIFIER_KEY, undefined);
    this.storage.setString(CODE_CHALLENGE_KEY, undefined);
    return this.reloadProfile();
  }

  // ---- redirect sign-in (OAuth authorization code with PKCE) ----

  private requireNavigation(): NavigationLike {
    if (!this.navigation) {
      throw new Error('Redirect sign-in needs a browser window');
    }
    return this.navigation;
  }

  /**
   * Without a code in the URL: sends the browser to the authorize URL. Back with one: checks the
   * returned state against the stored one, then processes the code.
   */
  async signInWithRedirect(loginParams?: Partial<BaseLoginRequest>): Promise<ProfileResource | undefined> {
    const navigation = this.requireNavigation();
    const params = new URLSearchParams(navigation.search);
    const code = params.get('code');
    if (!code) {
      await this.requestAuthorization(loginParams);
      return undefined;
    }
    const expectedState = this.storage.getString(PKCE_STATE_KEY);
    if (!expectedState || params.get('state') !== expectedState) {
      throw new Error('Invalid OAuth state');
    }
    this.storage.setString(PKCE_STATE_KEY, undefined);
    return this.processCode(code, loginParams);
  }

  async requestAuthorization(loginParams?: Partial<BaseLoginRequest>): Promise<void> {
    const navigation = this.requireNavigation();
    const request = await this.ensureCodeChallenge(loginParams ?? {});
    const clientId = request.clientId ?? this.tokens.clientId;
    if (!clientId) {
      throw missing('clientId');
    }
    const url = new URL(this.settings.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('state', this.storage.getString(PKCE_STATE_KEY) ?? getRandomString());
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', request.redirectUri ?? navigation.origin);
    url.searchParams.set('code_challenge_method', request.codeChallengeMethod ?? 'S256');
    url.searchParams.set('code_challenge', request.codeChallenge ?? '');
    url.searchParams.set('scope', request.scope ?? DEFAULT_SCOPE);
    navigation.assign(url.toString());
  }

  /** Sends the browser to an external identity provider; the state carries the code challenge and domain (SPEC §4). */
  async signInWithExternalAuth(
    authorizeUrl: string,
    clientId: string,
    redirectUri: string,
    baseLogin: BaseLoginRequest,
    pkceEnabled = true,
  ): Promise<void> {
    const navigation = this.requireNavigation();
    const loginRequest = await this.ensureCodeChallenge(baseLogin);
    navigation.assign(
      this.getExternalAuthRedirectUri(authorizeUrl, clientId, redirectUri, loginRequest, pkceEnabled),
    );
  }

  getExternalAuthRedirectUri(
    authorizeUrl: string,
    clientId: string,
    redirectUri: string,
    loginRequest: BaseLoginRequest,
    pkceEnabled = true,
  ): string {
    const url = new URL(authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', loginRequest.scope ?? DEFAULT_EXTERNAL_SCOPE);
    url.searchParams.set('state', JSON.stringify(loginRequest));
    if (pkceEnabled) {
      // SPEC §5: external sign-in with PKCE needs a code challenge method and a code challenge.
      if (!loginRequest.codeChallengeMethod) {
        throw new Error('External sign-in with PKCE needs a codeChallengeMethod');
      }
      if (!loginRequest.codeChallenge) {
        throw new Error('External sign-in with PKCE needs a codeChallenge');
      }
      url.searchParams.set('code_challenge_method', loginRequest.codeChallengeMethod);
      url.searchParams.set('code_challenge', loginRequest.codeChallenge);
    }
    return url.toString();
  }

  // ---- machine sign-in (SPEC §6) ----

  async startClientLogin(clientId: string, clientSecret: string): Promise<ProfileResource | undefined> {
    if (!clientId) {
      throw missing('clientId');
    }
    if (!clientSecret) {
      throw missing('clientSecret');
    }
    this.tokens.clientId = clientId;
    this.tokens.clientSecret = clientSecret;
    return this.fetchTokensAndProfile(
      new URLSearchParams({
        grant_type: OAUTH_GRANT_TYPE.clientCredentials,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    );
  }

  startJwtBearerLogin(
    clientId: string,
    assertion: string,
    scope: string,
  ): Promise<ProfileResource | undefined> {
    if (!clientId) {
      return Promise.reject(missing('clientId'));
    }
    return this.fetchTokensAndProfile(
      new URLSearchParams({ grant_type: OAUTH_GRANT_TYPE.jwtBearer, client_id: clientId, assertion, scope }),
    );
  }

  startJwtAssertionLogin(jwt: string): Promise<ProfileResource | undefined> {
    return this.fetchTokensAndProfile(
      new URLSearchParams({
        grant_type: OAUTH_GRANT_TYPE.clientCredentials,
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: jwt,
      }),
    );
  }

  exchangeExternalAccessToken(token: string, clientId?: string): Promise<ProfileResource | undefined> {
    const id = clientId ?? this.tokens.clientId;
    if (!id) {
      return Promise.reject(missing('clientId'));
    }
    return this.fetchTokensAndProfile(
      new URLSearchParams({
        grant_type: OAUTH_GRANT_TYPE.tokenExchange,
        subject_token_type: TOKEN_EXCHANGE_SUBJECT_TYPE,
        client_id: id,
        subject_token: token,
      }),
    );
  }

  /** Every request carries these credentials as HTTP Basic auth (no token, nothing to refresh). */
  setBasicAuth(clientId: string, clientSecret: string): void {
    this.tokens.setBasicAuth(clientId, clientSecret);
  }

  private async fetchTokensAndProfile(form: URLSearchParams): Promise<ProfileResource | undefined> {
    await this.tokens.fetchTokens(form);
    return this.reloadProfile();
  }

  // ---- sign out ----

  /** POSTs the logout URL (revoking the login on the server), then forgets this client's keys. */
  async signOut(): Promise<void> {
    try {
      if (this.tokens.getAuthorizationHeader()) {
        await this.pipeline.request('POST', this.settings.logoutUrl, {
          body: {},
          contentType: JSON_CONTENT_TYPE,
          authRenewal: false,
        });
      }
    } finally {
      this.clear();
    }
  }

  /** Forgets the login, the session and this client's stored keys (never other keys). */
  clear(): void {
    const hadLogin = this.tokens.getActiveLogin() !== undefined;
    this.storage.clear();
    this.tokens.clearCredentials();
    this.tokens.clearActiveLogin();
    this.sessionDetails = undefined;
    this.profilePromise = undefined;
    this.invalidateAll();
    if (!hadLogin) {
      // clearActiveLogin announced the change when there was a login; announce it once either way.
      this.dispatchEvent({ type: 'change' });
    }
  }

  // ---- FHIRcast (SPEC §5, §7 Remote context sync): the logic lives in fhircast/ ----

  fhircastSubscribe(
    topic: string,
    events: string[],
  ): Promise<FhircastSubscriptionRequest & { endpoint: string }> {
    return fhircast.fhircastSubscribe(this, topic, events);
  }

  fhircastUnsubscribe(request: FhircastSubscriptionRequest): Promise<void> {
    return fhircast.fhircastUnsubscribe(this, request);
  }

  fhircastConnect(
    request: FhircastSubscriptionRequest,
    handlers: FhircastConnectionHandlers = {},
    createSocket: WebSocketFactory = fhircast.defaultWebSocketFactory(),
  ): fhircast.FhircastConnection {
    return new fhircast.FhircastConnection(request, handlers, createSocket);
  }

  fhircastPublish(
    topic: string,
    event: string,
    context: unknown,
    versionId?: string,
    options?: fhircast.FhircastPublishOptions,
  ): Promise<FhircastMessage> {
    return fhircast.fhircastPublish(this, topic, event, context, versionId, options);
  }

  fhircastGetContext(topic: string): Promise<FhircastCurrentContext> {
    return fhircast.fhircastGetContext(this, topic);
  }

  // ---- live subscriptions (SPEC §4, §7 live updates): the logic lives in subscriptions/ ----

  /** The one manager of this client's live subscriptions, on {baseUrl}ws/subscriptions-r4. */
  getSubscriptionManager(): SubscriptionManager {
    this.subscriptionManager ??= new SubscriptionManager(
      this,
      new URL(SUBSCRIPTIONS_WS_PATH, this.getBaseUrl()),
      this.subscriptionOptions,
    );
    return this.subscriptionManager;
  }

  /** Listens to `criteria` ('Communication?subject=Patient/1'): its emitter; reference-counted. */
  subscribeToCriteria(criteria: string, subscriptionProps?: Partial<Subscription>): SubscriptionEmitter {
    return this.getSubscriptionManager().addCriteria(criteria, subscriptionProps);
  }

  /** One reference less; the last criteria removed closes the socket. */
  unsubscribeFromCriteria(criteria: string, subscriptionProps?: Partial<Subscription>): void {
    this.subscriptionManager?.removeCriteria(criteria, subscriptionProps);
  }

  /** Every criteria's events, and the socket's open, close and errors. */
  getMasterSubscriptionEmitter(): SubscriptionEmitter {
    return this.getSubscriptionManager().getMasterEmitter();
  }
}
