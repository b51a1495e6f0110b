// The platform client's public surface: the identity layer, the FHIR calls and the request pipeline.
export { BloomClient, SUBSCRIPTIONS_WS_PATH } from './client';
export type { BloomClientOptions, NavigationLike } from './client';
export type * from './auth-types';
export { ClientEventEmitter } from './events';
export type { ClientEvent, ClientEventListener, ClientEventType, ResourceChangedEvent } from './events';
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
export { RequestPipeline, FHIR_JSON, JSON_CONTENT_TYPE, DEFAULT_POLL_STATUS_PERIOD } from './request';
export type { CacheMode, HttpMethod, RequestOptions } from './request';
export type { PipelineFetch, PipelineFetchInit } from './pipeline-fetch';
export { loggingHooks } from './pipeline-hooks';
export type {
  AfterResponseHook,
  BeforeRequestHook,
  BeforeRetryHook,
  OutgoingRequest,
  PipelineHooks,
  RetryInfo,
} from './pipeline-hooks';
export { FhirClient, JSON_PATCH_CONTENT_TYPE } from './fhir-client';
export type { FhirClientOptions, JsonPatchOperation, ScheduleFindQuery } from './fhir-client';
export { PlatformClient } from './platform-client';
export type {
  BinarySource,
  BulkDataExport,
  CreateBinaryOptions,
  CreateDocumentReferenceOptions,
  CreateMediaOptions,
  EmailRequest,
  InviteRequest,
  PdfCreator,
  PlatformClientOptions,
  ValueSetExpandParams,
} from './platform-client';
export { ReadablePromise } from './readable-promise';
export type { ReadableStatus } from './readable-promise';
export { ResourceCache } from './resource-cache';
export { AutoBatcher } from './auto-batcher';
export {
  IDEMPOTENCY_KEY_HEADER,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER,
  RETRY_DELAY,
  isRetrySafe,
  newIdempotencyKey,
  parseRetryAfter,
} from './retry-policy';
export { REQUEST_ABORTED, isAbortError } from './abort';
export { REQUEST_ERROR } from './upload';
export type { UploadProgress, UploadProgressListener, XhrFactory, XhrLike } from './upload';
export { bundleToResourceArray, searchUrl, toQueryString } from './search-url';
export type { QueryTypes, ResourceArray } from './search-url';
export { SchemaStore, SCHEMA_SEARCH_PARAMETER_COUNT, schemaQuery } from './schema-store';
export type { TypeSchema } from './schema-store';
export { SignedUrlCache, SIGNED_URL_MIN_REMAINING_MS } from './signed-urls';
export { UNABLE_TO_DECODE_BASE64, decodeBase64, decodeBase64ToBytes, encodeBase64 } from './base64';
export { KeyValueClient, KEY_VALUE_PATH } from './key-value';
export { OfflineWriteQueue, OFFLINE_WRITES_STORAGE_KEY } from './offline-writes';
export type { OfflineWriteTarget, QueuedWrite, QueuedWriteState } from './offline-writes';
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
export * from './subscriptions';
