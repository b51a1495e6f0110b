// The platform client's public surface (issue #3 identity layer; issue #5 grows it).
export { BloomClient } from './client';
export type { BloomClientOptions, NavigationLike } from './client';
export type * from './auth-types';
export { ClientEventEmitter } from './events';
export type { ClientEvent, ClientEventListener, ClientEventType } from './events';
export { checkToken, isJwt, parseJwtPayload, tokenExpiresAt } from './jwt';
export type { JwtPayload, TokenCheckOptions } from './jwt';
export {
  base64UrlEncode,
  computeCodeChallenge,
  createPkcePair,
  getRandomString,
  CODE_CHALLENGE_METHOD,
} from './pkce';
export type { CodeChallengeMethod, PkcePair } from './pkce';
export { RequestPipeline, FHIR_JSON, JSON_CONTENT_TYPE } from './request';
export type { HttpMethod, RequestOptions } from './request';
export * from './settings';
export {
  ACTIVE_LOGIN_KEY,
  DEFAULT_STORAGE_PREFIX,
  LOGINS_KEY,
  MemoryStorage,
  PrefixedStorage,
  classifyStorageEvent,
  createDefaultStorage,
  watchActiveLogin,
} from './storage';
export type {
  ActiveLoginChange,
  ClientStorage,
  LoginState,
  StorageBackend,
  StorageEventLike,
  StorageEventSource,
} from './storage';
export {
  DEFAULT_REFRESH_GRACE_PERIOD,
  OAUTH_GRANT_TYPE,
  TokenManager,
  unauthenticatedError,
} from './token-manager';
export type { TokenManagerOptions, TokenResponse } from './token-manager';
