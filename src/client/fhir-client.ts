// The FHIR and platform calls of SPEC §7 with MedplumClient's names, over the request pipeline:
// GETs go through the response cache (readable promises, SPEC §4) and the auto-batcher; writes
// invalidate what they change; POSTs to the API carry an Idempotency-Key so they may be retried
// (issue #5). BloomClient (client.ts) adds the sign-in flows on top of this class.
import type {
  Agent,
  Attachment,
  Binary,
  Bundle,
  Device,
  Identifier,
  OperationOutcome,
  ProjectMembership,
  Reference,
  Resource,
  StructureDefinition,
  SearchParameter,
  ValueSet,
} from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest } from '../fhir/outcomes';
import { getReferenceString, isSystemReference, parseReference, systemDevice } from '../fhir/references';
import type { SearchRequest } from '../fhir/search/types';
import { AutoBatcher } from './auto-batcher';
import { ClientEventEmitter } from './events';
import { KeyValueClient } from './key-value';
import { ReadablePromise } from './readable-promise';
import { FHIR_JSON, JSON_CONTENT_TYPE, RequestPipeline } from './request';
import type { HttpMethod, RequestOptions } from './request';
import { ResourceCache } from './resource-cache';
import { newIdempotencyKey } from './retry-policy';
import { SchemaStore, schemaQuery } from './schema-store';
import type { TypeSchema } from './schema-store';
import { bundleToResourceArray, nextLink, searchUrl } from './search-url';
import type { QueryTypes, ResourceArray } from './search-url';
import type { ClientSettings } from './settings';
import { SignedUrlCache } from './signed-urls';
import type { TokenManager } from './token-manager';
import type { UploadProgressListener, XhrFactory } from './upload';

export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';
const TEXT_PLAIN = 'text/plain';
const OCTET_STREAM = 'application/octet-stream';

/** Makes a PDF from a document definition (pdfmake's, in Medplum); required by createPdf. */
export type PdfCreator = (
  docDefinition: unknown,
  tableLayouts?: Record<string, unknown>,
  fonts?: Record<string, unknown>,
) => Promise<Blob | Uint8Array | string>;

export interface FhirClientOptions {
  /** Enables createPdf (SPEC §5 'PDF creation not enabled' without it). */
  createPdf?: PdfCreator;
  /** XMLHttpRequest for uploads with progress; the environment's by default. */
  createXhr?: XhrFactory;
  now?: () => number;
}

export type BinarySource = string | Blob | ArrayBuffer | Uint8Array;

export interface CreateBinaryOptions {
  data: BinarySource;
  filename?: string;
  contentType?: string;
  onProgress?: UploadProgressListener;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'copy' | 'move' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export interface ValueSetExpandParams {
  url?: string;
  filter?: string;
  offset?: number;
  count?: number;
  [key: string]: string | number | boolean | undefined;
}

export interface InviteRequest {
  resourceType: 'Patient' | 'Practitioner' | 'RelatedPerson';
  firstName: string;
  lastName: string;
  email?: string;
  externalId?: string;
  password?: string;
  sendEmail?: boolean;
  membership?: Partial<ProjectMembership>;
  admin?: boolean;
}

export interface EmailRequest {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject: string;
  text?: string;
  html?: string;
}

/** Bulk Data export manifest (FHIR Bulk Data IG). */
export interface BulkDataExport {
  transactionTime: string;
  request: string;
  requiresAccessToken?: boolean;
  output?: { type: string; url: string; count?: number }[];
  error?: { type: string; url: string }[];
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function missing(what: 'resourceType' | 'id'): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(`Missing ${what}`));
}

function reject<T>(err: unknown): ReadablePromise<T> {
  return new ReadablePromise<T>(Promise.reject(err));
}

/** A resource's id, whether given a resource or a reference to it. */
function resolveId(value: Resource | Reference | string): string {
  if (typeof value === 'string') {
    return value;
  }
  if ('resourceType' in value && value.id) {
    return value.id;
  }
  return parseReference(value as Reference)[1];
}

function bodyContentType(data: BinarySource, given: string | undefined): string {
  if (given) {
    return given;
  }
  if (typeof Blob !== 'undefined' && data instanceof Blob && data.type) {
    return data.type;
  }
  return typeof data === 'string' ? TEXT_PLAIN : OCTET_STREAM;
}

export class FhirClient extends ClientEventEmitter {
  protected readonly settings: ClientSettings;
  protected readonly pipeline: RequestPipeline;
  private readonly cache: ResourceCache;
  private readonly batcher: AutoBatcher | undefined;
  private readonly schema = new SchemaStore();
  private readonly schemaRequests = new Map<string, Promise<TypeSchema>>();
  private readonly signedUrls: SignedUrlCache;
  private readonly pdfCreator: PdfCreator | undefined;
  private readonly derivedPromises = new WeakMap<
    ReadablePromise<unknown>,
    Map<string, ReadablePromise<unknown>>
  >();
  /** Per-user key-value storage (SPEC §7 keyvalue/v1). */
  readonly keyValue: KeyValueClient;

  constructor(settings: ClientSettings, tokens: TokenManager, options: FhirClientOptions = {}) {
    super();
    this.settings = settings;
    this.pipeline = new RequestPipeline({
      baseUrl: settings.baseUrl,
      fetch: settings.fetch,
      tokens,
      verbose: settings.verbose,
      onOffline: () => this.dispatchEvent({ type: 'offline' }),
      createXhr: options.createXhr,
      now: options.now,
    });
    this.cache = new ResourceCache({
      maxSize: settings.resourceCacheSize,
      ttl: settings.cacheTime,
      now: options.now,
    });
    this.batcher =
      settings.autoBatchTime > 0
        ? new AutoBatcher({
            fhirBaseUrl: settings.fhirBaseUrl,
            delay: settings.autoBatchTime,
            sendOne: (url) => this.pipeline.request('GET', url),
            sendBatch: (bundle) =>
              this.pipeline.request<Bundle>('POST', settings.fhirBaseUrl, {
                body: bundle,
                idempotencyKey: newIdempotencyKey(),
              }),
          })
        : undefined;
    this.signedUrls = new SignedUrlCache(options.now);
    this.pdfCreator = options.createPdf;
    this.keyValue = new KeyValueClient(this);
  }

  // ---- URLs ----

  fhirUrl(...path: string[]): string {
    return this.settings.fhirBaseUrl + path.join('/');
  }

  /** `{type}?{query}` under the FHIR base; a SearchRequest is formatted as SPEC §7 says. */
  fhirSearchUrl(typeOrRequest: string | SearchRequest, query?: QueryTypes): string {
    return searchUrl(this.settings.fhirBaseUrl, typeOrRequest, query);
  }

  // ---- plain requests ----

  /** One request through the pipeline, no cache (writes through here invalidate nothing). */
  request<T>(method: HttpMethod, url: string, options?: RequestOptions): Promise<T> {
    return this.pipeline.request<T>(method, url, options);
  }

  /** A GET through the cache (unless options.cache says otherwise) and the auto-batcher. */
  get<T>(url: string, options: RequestOptions = {}): ReadablePromise<T> {
    const absolute = this.pipeline.url(url);
    const mode = options.cache ?? 'default';
    if (mode === 'default') {
      const cached = this.cache.get<T>(absolute);
      if (cached) {
        return cached;
      }
    }
    const promise = new ReadablePromise<T>(this.fetchGet<T>(absolute, options));
    if (mode !== 'no-cache') {
      this.cache.set(absolute, promise);
    }
    return promise;
  }

  private fetchGet<T>(url: string, options: RequestOptions): Promise<T> {
    if (this.batcher?.canBatch(url, options)) {
      return this.batcher.enqueue<T>(url);
    }
    return this.pipeline.request<T>('GET', url, options);
  }

  post<T>(url: string, body: unknown, contentType?: string, options: RequestOptions = {}): Promise<T> {
    const absolute = this.pipeline.url(url);
    this.cache.delete(absolute);
    return this.pipeline.request<T>('POST', absolute, {
      ...options,
      body,
      contentType: contentType ?? options.contentType,
      idempotencyKey: options.idempotencyKey ?? this.idempotencyKeyFor(absolute),
    });
  }

  put<T>(url: string, body: unknown, contentType?: string, options: RequestOptions = {}): Promise<T> {
    const absolute = this.pipeline.url(url);
    this.cache.delete(absolute);
    return this.pipeline.request<T>('PUT', absolute, {
      ...options,
      body,
      contentType: contentType ?? options.contentType,
    });
  }

  patch<T>(url: string, operations: JsonPatchOperation[], options: RequestOptions = {}): Promise<T> {
    const absolute = this.pipeline.url(url);
    this.cache.delete(absolute);
    return this.pipeline.request<T>('PATCH', absolute, {
      ...options,
      body: JSON.stringify(operations),
      contentType: JSON_PATCH_CONTENT_TYPE,
    });
  }

  delete<T>(url: string, options: RequestOptions = {}): Promise<T> {
    const absolute = this.pipeline.url(url);
    this.cache.delete(absolute);
    return this.pipeline.request<T>('DELETE', absolute, options);
  }

  /** POSTs to the FHIR API, admin/ and email/ carry a fresh Idempotency-Key (the server honours those). */
  private idempotencyKeyFor(url: string): string | undefined {
    const base = this.settings.baseUrl;
    return url.startsWith(this.settings.fhirBaseUrl) ||
      url.startsWith(`${base}admin/`) ||
      url.startsWith(`${base}email/`)
      ? newIdempotencyKey()
      : undefined;
  }

  // ---- cache ----

  /** Forgets every cached response. */
  invalidateAll(): void {
    this.cache.clear();
    this.signedUrls.clear();
  }

  invalidateUrl(url: string): void {
    this.cache.delete(this.pipeline.url(url));
  }

  /** Forgets the cached searches of a type (`{type}`, `{type}?...`, `{type}/_history`). */
  invalidateSearches(resourceType: string): void {
    const base = this.fhirUrl(resourceType);
    this.cache.deleteWhere(
      (key) =>
        key === base ||
        key.startsWith(`${base}?`) ||
        key.startsWith(`${base}#`) ||
        key.startsWith(`${base}/_history`),
    );
  }

  /** After a write to `resourceType`: its searches, and compartment views ($everything, $graph). */
  private invalidateAfterWrite(resourceType: string, id?: string): void {
    this.invalidateSearches(resourceType);
    if (id) {
      const instance = this.fhirUrl(resourceType, id);
      this.cache.deleteWhere((key) => key === instance || key.startsWith(`${instance}/_history`));
    }
    this.cache.deleteWhere((key) => key.includes('/$everything') || key.includes('/$graph'));
  }

  /** Stores a resource as the answer to its read URL. */
  cacheResource(resource: Resource | undefined): void {
    if (resource?.id && !isSystemReference(`${resource.resourceType}/${resource.id}`)) {
      this.cache.set(this.fhirUrl(resource.resourceType, resource.id), ReadablePromise.resolve(resource));
    }
  }

  /** The cached resource, if its read has succeeded and not expired (synchronous). */
  getCached<T extends Resource>(resourceType: T['resourceType'], id: string): T | undefined {
    return this.cache.peek<T>(this.fhirUrl(resourceType, id));
  }

  getCachedReference<T extends Resource>(reference: Reference<T>): T | undefined {
    if (isSystemReference(reference)) {
      return systemDevice as unknown as T;
    }
    try {
      const [resourceType, id] = parseReference(reference);
      return this.getCached<T>(resourceType as T['resourceType'], id);
    } catch {
      return undefined;
    }
  }

  // ---- reads (SPEC §7 FHIR calls) ----

  readResource<T extends Resource>(
    resourceType: T['resourceType'],
    id: string,
    options?: RequestOptions,
  ): ReadablePromise<T> {
    if (!resourceType) {
      return reject(missing('resourceType'));
    }
    if (!id) {
      return reject(missing('id'));
    }
    return this.get<T>(this.fhirUrl(resourceType, id), options);
  }

  /** SPEC §5: 'Missing reference', 'Invalid reference'; SPEC §3: 'system' is the system Device. */
  readReference<T extends Resource>(reference: Reference<T>, options?: RequestOptions): ReadablePromise<T> {
    if (isSystemReference(reference)) {
      return ReadablePromise.resolve(systemDevice as Device as unknown as T);
    }
    let parts: [string, string];
    try {
      parts = parseReference(reference);
    } catch (err) {
      return reject(err);
    }
    return this.readResource<T>(parts[0] as T['resourceType'], parts[1], options);
  }

  readHistory<T extends Resource>(
    resourceType: T['resourceType'],
    id: string,
    options?: RequestOptions,
  ): ReadablePromise<Bundle<T>> {
    return this.get<Bundle<T>>(this.fhirUrl(resourceType, id, '_history'), options);
  }

  readVersion<T extends Resource>(
    resourceType: T['resourceType'],
    id: string,
    versionId: string,
    options?: RequestOptions,
  ): ReadablePromise<T> {
    return this.get<T>(this.fhirUrl(resourceType, id, '_history', versionId), options);
  }

  readPatientEverything(id: string, options?: RequestOptions): ReadablePromise<Bundle> {
    return this.get<Bundle>(this.fhirUrl('Patient', id, '$everything'), options);
  }

  /** GET {type}/{id}/$graph?graph={name} */
  readResourceGraph(
    resourceType: string,
    id: string,
    graphName: string,
    options?: RequestOptions,
  ): ReadablePromise<Bundle> {
    const query = new URLSearchParams({ graph: graphName }).toString();
    return this.get<Bundle>(`${this.fhirUrl(resourceType, id, '$graph')}?${query}`, options);
  }

  // ---- search ----

  /** GET {type}?params; each match is cached as its own read as well. */
  search<T extends Resource>(
    typeOrRequest: T['resourceType'] | SearchRequest,
    query?: QueryTypes,
    options?: RequestOptions,
  ): ReadablePromise<Bundle<T>> {
    const url = this.fhirSearchUrl(typeOrRequest, query);
    const promise = this.get<Bundle<T>>(url, options);
    promise.then(
      (bundle) => bundle?.entry?.forEach((entry) => this.cacheResource(entry.resource)),
      () => undefined,
    );
    return promise;
  }

  /** The first match, or undefined (asks for one with _count=1). */
  searchOne<T extends Resource>(
    resourceType: T['resourceType'],
    query?: QueryTypes,
    options?: RequestOptions,
  ): ReadablePromise<T | undefined> {
    const params = new URLSearchParams(this.fhirSearchUrl(resourceType, query).split('?')[1] ?? '');
    params.set('_count', '1');
    return this.derived(
      this.search<T>(resourceType, params, options),
      '#one',
      (bundle) => bundle?.entry?.[0]?.resource,
    );
  }

  /** The matches as an array that also carries its Bundle. */
  searchResources<T extends Resource>(
    typeOrRequest: T['resourceType'] | SearchRequest,
    query?: QueryTypes,
    options?: RequestOptions,
  ): ReadablePromise<ResourceArray<T>> {
    return this.derived(this.search<T>(typeOrRequest, query, options), '#resources', (bundle) =>
      bundleToResourceArray(bundle),
    );
  }

  /** Every page of a search, following the Bundles' next links. */
  async *searchResourcePages<T extends Resource>(
    typeOrRequest: T['resourceType'] | SearchRequest,
    query?: QueryTypes,
    options?: RequestOptions,
  ): AsyncGenerator<ResourceArray<T>> {
    let url: string | undefined = this.fhirSearchUrl(typeOrRequest, query);
    while (url) {
      const bundle: Bundle<T> = await this.get<Bundle<T>>(url, options);
      yield bundleToResourceArray(bundle);
      url = nextLink(bundle as Bundle);
    }
  }

  /**
   * A value computed from a GET's promise, made once per promise: while the GET is a cache hit the
   * derived value is too (readable synchronously), and it goes when its source leaves the cache.
   */
  private derived<S, T>(
    source: ReadablePromise<S>,
    suffix: string,
    map: (value: S) => T,
  ): ReadablePromise<T> {
    let byPromise = this.derivedPromises.get(source);
    if (!byPromise) {
      byPromise = new Map();
      this.derivedPromises.set(source, byPromise);
    }
    const existing = byPromise.get(suffix) as ReadablePromise<T> | undefined;
    if (existing) {
      return existing;
    }
    const promise = new ReadablePromise<T>(source.then(map));
    byPromise.set(suffix, promise);
    return promise;
  }

  // ---- writes ----

  async createResource<T extends Resource>(resource: T, options?: RequestOptions): Promise<T> {
    if (!resource?.resourceType) {
      throw missing('resourceType');
    }
    const result = await this.post<T>(this.fhirUrl(resource.resourceType), resource, FHIR_JSON, options);
    this.cacheResource(result);
    this.invalidateAfterWrite(resource.resourceType);
    return result;
  }

  /** Creates the resource unless one matches `query` (If-None-Exist); returns the created or the match. */
  async createResourceIfNoneExist<T extends Resource>(
    resource: T,
    query: QueryTypes,
    options: RequestOptions = {},
  ): Promise<T> {
    const criteria = searchUrl('', resource.resourceType, query).split('?')[1] ?? '';
    return this.createResource(resource, {
      ...options,
      headers: { ...options.headers, 'If-None-Exist': criteria },
    });
  }

  /** Conditional update: PUT {type}?{query} (creates when nothing matches). */
  async upsertResource<T extends Resource>(
    resource: T,
    query: QueryTypes,
    options?: RequestOptions,
  ): Promise<T> {
    if (!resource?.resourceType) {
      throw missing('resourceType');
    }
    const result = await this.put<T>(
      this.fhirSearchUrl(resource.resourceType, query),
      resource,
      FHIR_JSON,
      options,
    );
    this.cacheResource(result);
    this.invalidateAfterWrite(resource.resourceType, result?.id);
    return result ?? resource;
  }

  /** SPEC §5: 'Missing resourceType', 'Missing id'. A 304 (nothing changed) returns the resource given. */
  async updateResource<T extends Resource>(resource: T, options?: RequestOptions): Promise<T> {
    if (!resource?.resourceType) {
      throw missing('resourceType');
    }
    if (!resource.id) {
      throw missing('id');
    }
    const result =
      (await this.put<T>(this.fhirUrl(resource.resourceType, resource.id), resource, FHIR_JSON, options)) ??
      resource;
    this.invalidateAfterWrite(resource.resourceType, resource.id);
    this.cacheResource(result);
    return result;
  }

  async patchResource<T extends Resource>(
    resourceType: T['resourceType'],
    id: string,
    operations: JsonPatchOperation[],
    options?: RequestOptions,
  ): Promise<T> {
    if (!resourceType) {
      throw missing('resourceType');
    }
    if (!id) {
      throw missing('id');
    }
    const result = await this.patch<T>(this.fhirUrl(resourceType, id), operations, options);
    this.invalidateAfterWrite(resourceType, id);
    this.cacheResource(result);
    return result;
  }

  async deleteResource(resourceType: string, id: string, options?: RequestOptions): Promise<void> {
    if (!resourceType) {
      throw missing('resourceType');
    }
    if (!id) {
      throw missing('id');
    }
    this.invalidateAfterWrite(resourceType, id);
    await this.delete(this.fhirUrl(resourceType, id), options);
    // Reads that were in flight during the delete must not bring it back.
    this.invalidateAfterWrite(resourceType, id);
  }

  /** POST {type}/$validate: the outcome of validating without storing. */
  validateResource<T extends Resource>(resource: T, options?: RequestOptions): Promise<OperationOutcome> {
    if (!resource?.resourceType) {
      return Promise.reject(missing('resourceType'));
    }
    return this.post<OperationOutcome>(
      this.fhirUrl(resource.resourceType, '$validate'),
      resource,
      FHIR_JSON,
      options,
    );
  }

  /** POSTs a batch or transaction Bundle; every type it writes loses its cached reads and searches. */
  async executeBatch(bundle: Bundle, options?: RequestOptions): Promise<Bundle> {
    try {
      return await this.post<Bundle>(this.settings.fhirBaseUrl, bundle, FHIR_JSON, options);
    } finally {
      // Also on failure: a batch may have written some entries before an error.
      for (const entry of bundle.entry ?? []) {
        const method = entry.request?.method;
        const type = (entry.request?.url ?? '').split(/[/?]/)[0] || entry.resource?.resourceType;
        if (method && WRITE_METHODS.has(method) && type) {
          this.invalidateAfterWrite(type);
          this.cache.deleteWhere((key) => key.startsWith(this.fhirUrl(type) + '/'));
        }
      }
    }
  }

  // ---- operations ----

  /** POST $graphql {query, operationName, variables}. */
  graphql<T = unknown>(
    query: string,
    operationName?: string | null,
    variables?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<T> {
    return this.post<T>(
      this.fhirUrl('$graphql'),
      { query, operationName, variables },
      JSON_CONTENT_TYPE,
      options,
    );
  }

  /** POST Bot/{id}/$execute, or Bot/$execute?identifier=system|value. */
  executeBot<T = unknown>(
    idOrIdentifier: string | Identifier,
    body: unknown,
    contentType?: string,
    options?: RequestOptions,
  ): Promise<T> {
    let url: string;
    if (typeof idOrIdentifier === 'string') {
      if (!idOrIdentifier) {
        return Promise.reject(missing('id'));
      }
      url = this.fhirUrl('Bot', idOrIdentifier, '$execute');
    } else {
      const identifier = `${idOrIdentifier.system ?? ''}|${idOrIdentifier.value ?? ''}`;
      url = `${this.fhirUrl('Bot', '$execute')}?${new URLSearchParams({ identifier })}`;
    }
    const type = contentType ?? (typeof body === 'string' ? TEXT_PLAIN : JSON_CONTENT_TYPE);
    return this.post<T>(url, body, type, options);
  }

  /** POST Agent/{id}/$push {destination, body, contentType, waitForResponse}. */
  pushToAgent<T = unknown>(
    agent: Agent | Reference<Agent> | string,
    destination: Device | Reference<Device> | string,
    body: unknown,
    contentType?: string,
    waitForResponse?: boolean,
    options?: RequestOptions,
  ): Promise<T> {
    const target =
      typeof destination === 'string'
        ? destination
        : 'resourceType' in destination
          ? getReferenceString(destination)
          : (destination.reference ?? '');
    return this.post<T>(
      this.fhirUrl('Agent', resolveId(agent), '$push'),
      { destination: target, body, contentType, waitForResponse },
      FHIR_JSON,
      options,
    );
  }

  /** GET ValueSet/$expand?url&filter (and paging). */
  valueSetExpand(params: ValueSetExpandParams, options?: RequestOptions): ReadablePromise<ValueSet> {
    return this.get<ValueSet>(this.fhirSearchUrl('ValueSet/$expand', params), options);
  }

  /**
   * POST {level}/$export with Prefer: respond-async, then polls the status URL until the export is
   * done and returns its manifest. `exportLevel`: '' (system), 'Patient' or 'Group/{id}'.
   */
  bulkExport(
    exportLevel = '',
    resourceTypes?: string,
    since?: string,
    options: RequestOptions = {},
  ): Promise<Partial<BulkDataExport>> {
    const path = exportLevel ? `${exportLevel.replace(/\/$/, '')}/$export` : '$export';
    const params: Record<string, string | undefined> = { _type: resourceTypes, _since: since };
    return this.post<Partial<BulkDataExport>>(this.fhirSearchUrl(path, params), undefined, undefined, {
      ...options,
      headers: { ...options.headers, Prefer: 'respond-async' },
      pollStatusOnAccepted: true,
    });
  }

  // ---- schema (SPEC §7 schema load) ----

  getSchema(): SchemaStore {
    return this.schema;
  }

  /** Loads a type's StructureDefinition and search parameters once (GraphQL, SPEC §7). */
  requestSchema(resourceType: string): Promise<TypeSchema> {
    if (this.schema.isLoaded(resourceType)) {
      return Promise.resolve(this.schema.getDataType(resourceType));
    }
    let pending = this.schemaRequests.get(resourceType);
    if (!pending) {
      pending = this.loadSchema(resourceType);
      this.schemaRequests.set(resourceType, pending);
      pending.catch(() => this.schemaRequests.delete(resourceType));
    }
    return pending;
  }

  private async loadSchema(resourceType: string): Promise<TypeSchema> {
    const response = await this.graphql<{
      data?: { StructureDefinitionList?: StructureDefinition[]; SearchParameterList?: SearchParameter[] };
    }>(schemaQuery(resourceType));
    const [first] = this.schema.indexStructureDefinitions(response?.data?.StructureDefinitionList);
    this.schema.indexSearchParameters(response?.data?.SearchParameterList ?? []);
    return first ?? this.schema.getDataType(resourceType);
  }

  /**
   * Loads a profile by URL: with expandProfile, POST StructureDefinition/$expand-profile?url
   * (the profile and the profiles it uses); else the latest StructureDefinition with that URL.
   */
  async requestProfileSchema(
    profileUrl: string,
    options: { expandProfile?: boolean } = {},
  ): Promise<TypeSchema> {
    if (this.schema.isLoaded(profileUrl)) {
      return this.schema.getDataType(profileUrl);
    }
    if (options.expandProfile) {
      const url = this.fhirSearchUrl('StructureDefinition/$expand-profile', { url: profileUrl });
      const bundle = await this.post<Bundle<StructureDefinition>>(url, {}, FHIR_JSON);
      this.schema.indexStructureDefinitions((bundle?.entry ?? []).map((entry) => entry.resource));
    } else {
      const sd = await this.searchOne<StructureDefinition>('StructureDefinition', {
        url: profileUrl,
        _sort: '-_lastUpdated',
      });
      if (!sd) {
        throw new Error(`Unknown data type: ${profileUrl}`);
      }
      this.schema.indexStructureDefinitions([sd]);
    }
    return this.schema.getDataType(profileUrl);
  }

  // ---- binaries and media ----

  /** POST Binary?_filename with the raw body; progress through XMLHttpRequest in a browser. */
  createBinary(
    dataOrOptions: BinarySource | CreateBinaryOptions,
    filename?: string,
    contentType?: string,
    onProgress?: UploadProgressListener,
    options: RequestOptions = {},
  ): Promise<Binary> {
    const args: CreateBinaryOptions = this.isBinaryOptions(dataOrOptions)
      ? dataOrOptions
      : { data: dataOrOptions, filename, contentType, onProgress };
    const query = args.filename ? { _filename: args.filename } : undefined;
    return this.post<Binary>(
      this.fhirSearchUrl('Binary', query),
      args.data,
      bodyContentType(args.data, args.contentType),
      { ...options, onUploadProgress: args.onProgress ?? options.onUploadProgress },
    );
  }

  private isBinaryOptions(value: BinarySource | CreateBinaryOptions): value is CreateBinaryOptions {
    return (
      typeof value === 'object' &&
      value !== null &&
      'data' in value &&
      !(value instanceof ArrayBuffer) &&
      !ArrayBuffer.isView(value) &&
      !(typeof Blob !== 'undefined' && value instanceof Blob)
    );
  }

  /** Uploads a Binary and returns an Attachment pointing at it. */
  async createAttachment(
    dataOrOptions: BinarySource | CreateBinaryOptions,
    filename?: string,
    contentType?: string,
    onProgress?: UploadProgressListener,
    options?: RequestOptions,
  ): Promise<Attachment> {
    const args: CreateBinaryOptions = this.isBinaryOptions(dataOrOptions)
      ? dataOrOptions
      : { data: dataOrOptions, filename, contentType, onProgress };
    const binary = await this.createBinary(args, undefined, undefined, undefined, options);
    return {
      contentType: binary.contentType ?? bodyContentType(args.data, args.contentType),
      url: binary.url ?? this.fhirUrl('Binary', binary.id as string),
      title: args.filename,
    };
  }

  /** SPEC §5: 'PDF creation not enabled' unless the client was given a PDF creator. */
  async createPdf(
    docDefinition: unknown,
    filename?: string,
    tableLayouts?: Record<string, unknown>,
    fonts?: Record<string, unknown>,
  ): Promise<Binary> {
    if (!this.pdfCreator) {
      throw new Error('PDF creation not enabled');
    }
    const pdf = await this.pdfCreator(docDefinition, tableLayouts, fonts);
    return this.createBinary(pdf, filename, 'application/pdf');
  }

  /** The signed URL to show for a Binary: the one already shown while it has more than 5 s left (SPEC §9). */
  getCachedBinaryUrl(url: string): string {
    return this.signedUrls.get(url);
  }

  // ---- other platform calls (SPEC §7) ----

  /** POST admin/projects/{id}/invite (project admins): the new membership. */
  invite(projectId: string, body: InviteRequest, options?: RequestOptions): Promise<ProjectMembership> {
    return this.post<ProjectMembership>(
      `admin/projects/${encodeURIComponent(projectId)}/invite`,
      body,
      JSON_CONTENT_TYPE,
      options,
    );
  }

  /** POST email/v1/send (project admins). */
  sendEmail(email: EmailRequest, options?: RequestOptions): Promise<OperationOutcome> {
    return this.post<OperationOutcome>('email/v1/send', email, JSON_CONTENT_TYPE, options);
  }
}
