// The FHIR REST calls of SPEC §7 with MedplumClient's names, over the request pipeline: GETs go
// through the response cache (readable promises, SPEC §4) and the auto-batcher; writes invalidate
// what they change; POSTs to the API carry an Idempotency-Key so they may be retried.
// PlatformClient (platform-client.ts) adds operations, schema, media and admin calls; BloomClient
// (client.ts) adds the sign-in flows.
import type {
  Appointment,
  Bundle,
  Device,
  ExtractResource,
  OperationOutcome,
  Parameters,
  Patient,
  Reference,
  Resource,
  ResourceType,
  Slot,
} from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest } from '../fhir/outcomes';
import { isSystemReference, parseReference, systemDevice } from '../fhir/references';
import type { SearchRequest } from '../fhir/search/types';
import { AutoBatcher } from './auto-batcher';
import { ClientEventEmitter } from './events';
import { KeyValueClient } from './key-value';
import { ReadablePromise } from './readable-promise';
import type { PipelineFetch } from './pipeline-fetch';
import type { PipelineHooks } from './pipeline-hooks';
import { FHIR_JSON, RequestPipeline } from './request';
import type { HttpMethod, RequestOptions } from './request';
import { ResourceCache } from './resource-cache';
import { newIdempotencyKey } from './retry-policy';
import { bundleToResourceArray, nextLink, searchUrl } from './search-url';
import type { QueryTypes, ResourceArray } from './search-url';
import type { ClientSettings } from './settings';
import type { TokenManager } from './token-manager';
import type { XhrFactory } from './upload';

/** The inputs of Schedule/{id}/$find, as Medplum's server names them. */
export interface ScheduleFindQuery {
  /** dateTimes with a zone, at most 31 days apart. */
  start: string;
  end: string;
  /** HealthcareService/{id} of the service. */
  'service-type-reference'?: string;
  /** [system]|code of the service. */
  'service-type'?: string;
  /** Proposals per answer (server default 20, at most 1000). */
  _count?: number;
}

export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';
/** A download of 'Binary/{id}' is under the FHIR base (MedplumClient's rule). */
const BINARY_PATH = 'Binary/';

export interface FhirClientOptions {
  /** XMLHttpRequest for uploads with progress; the environment's by default. */
  createXhr?: XhrFactory;
  now?: () => number;
  /** Request pipeline hooks from the start (more with addRequestHooks). */
  hooks?: PipelineHooks;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'copy' | 'move' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** SPEC §5 'Missing resourceType', 'Missing id' (before any request). */
export function missingField(what: 'resourceType' | 'id'): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(`Missing ${what}`));
}

function reject<T>(err: unknown): ReadablePromise<T> {
  return new ReadablePromise<T>(Promise.reject(err));
}

export class FhirClient extends ClientEventEmitter {
  protected readonly settings: ClientSettings;
  protected readonly pipeline: RequestPipeline;
  private readonly cache: ResourceCache;
  private readonly batcher: AutoBatcher | undefined;
  private readonly derivedPromises = new WeakMap<
    ReadablePromise<unknown>,
    Map<string, ReadablePromise<unknown>>
  >();
  /** Per-user key-value storage (SPEC §7 keyvalue/v1). */
  readonly keyValue: KeyValueClient;
  /**
   * fetch's signature through this client's request pipeline (auth, refresh, retries, abort,
   * offline): what Apollo's HttpLink sends with. Callable detached.
   */
  readonly fetch: PipelineFetch;

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
      hooks: options.hooks,
    });
    this.fetch = this.pipeline.fetch;
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
    this.keyValue = new KeyValueClient(this);
  }

  // ---- URLs ----

  fhirUrl(...path: string[]): string {
    return this.settings.fhirBaseUrl + path.join('/');
  }

  /** `{fhirBase}{type}/{id}`: the read URL, built without fhirUrl's array (cache hits are hot). */
  private readUrl(resourceType: string, id: string): string {
    return this.settings.fhirBaseUrl + resourceType + '/' + id;
  }

  /** `{type}?{query}` under the FHIR base; a SearchRequest is formatted as SPEC §7 says. */
  fhirSearchUrl(typeOrRequest: string | SearchRequest, query?: QueryTypes): string {
    return searchUrl(this.settings.fhirBaseUrl, typeOrRequest, query);
  }

  // ---- plain requests ----

  /** Hooks into every request's life (pipeline-hooks.ts); returns the function that removes them. */
  addRequestHooks(hooks: PipelineHooks): () => void {
    return this.pipeline.addHooks(hooks);
  }

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

  /**
   * MedplumClient's download: the file at `url` as a Blob, through the request pipeline (auth header,
   * refresh, retry, abort), never the cache. `url` is absolute, 'Binary/{id}' (under the FHIR base,
   * as in Medplum), or another path relative to the base URL. Unlike Medplum, whose download resolves
   * an error page as the Blob, an error status rejects with its outcome (SPEC §4 request results).
   */
  download(url: string | URL, options?: RequestOptions): Promise<Blob> {
    const target = url.toString();
    return this.pipeline.download(target.startsWith(BINARY_PATH) ? this.fhirUrl(target) : target, options);
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

  /**
   * After a write to `resourceType`: its searches, and compartment views ($everything, $graph); then
   * 'resourceChanged' tells caches outside the client (Apollo's) to drop what they hold of it.
   */
  private invalidateAfterWrite(resourceType: string, id?: string): void {
    this.forgetAfterWrite(resourceType, id);
    this.dispatchEvent({ type: 'resourceChanged', resourceType, ...(id ? { id } : {}) });
  }

  private forgetAfterWrite(resourceType: string, id?: string): void {
    this.invalidateSearches(resourceType);
    if (id) {
      const instance = this.fhirUrl(resourceType, id);
      this.cache.deleteWhere((key) => key === instance || key.startsWith(`${instance}/_history`));
    }
    this.cache.deleteWhere((key) => key.includes('/$everything') || key.includes('/$graph'));
  }

  /** Stores a whole resource (not a SUBSETTED one) as the answer to its read URL. */
  cacheResource(resource: Resource | undefined): void {
    const subsetted = resource?.meta?.tag?.some((tag) => tag.code === 'SUBSETTED');
    if (resource?.id && !subsetted && !isSystemReference(`${resource.resourceType}/${resource.id}`)) {
      this.cache.set(this.readUrl(resource.resourceType, resource.id), ReadablePromise.resolve(resource));
    }
  }

  /** The cached resource, if its read has succeeded and not expired (synchronous). */
  getCached<T extends Resource>(resourceType: T['resourceType'], id: string): T | undefined {
    return this.cache.peek<T>(this.readUrl(resourceType, id));
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
      return reject(missingField('resourceType'));
    }
    if (!id) {
      return reject(missingField('id'));
    }
    return this.get<T>(this.readUrl(resourceType, id), options);
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

  /**
   * MedplumClient's readCanonical: the resource with canonical `url` (a StructureDefinition,
   * Questionnaire, ValueSet...), or undefined. One type searches it (`{type}?url=`); several search
   * them together at the system level (`?_type=A,B&url=`).
   */
  readCanonical<RT extends ResourceType>(
    resourceType: RT | RT[],
    url: string,
    options?: RequestOptions,
  ): ReadablePromise<ExtractResource<RT> | undefined> {
    // Several types: a system-level search (no type in the path), as in Medplum.
    const [type, query] = Array.isArray(resourceType)
      ? ['', { _type: resourceType.join(','), url }]
      : [resourceType, { url }];
    return this.searchOne<ExtractResource<RT>>(type as ExtractResource<RT>['resourceType'], query, options);
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

  // ---- scheduling (Medplum's server operations; MedplumClient calls them with get/post) ----

  /**
   * GET Schedule/{id}/$find: the Schedule's free visit times in [start, end) as proposed Slots (no id).
   * Never cached: a time booked a moment ago must not be offered again.
   */
  findScheduleSlots(
    scheduleId: string,
    query: ScheduleFindQuery,
    options?: RequestOptions,
  ): ReadablePromise<Bundle<Slot>> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    return this.get<Bundle<Slot>>(`${this.fhirUrl('Schedule', scheduleId, '$find')}?${params}`, {
      ...options,
      cache: 'no-cache',
    });
  }

  /**
   * POST Appointment/$book with the proposed Slots (from findScheduleSlots) and the patient: the
   * booked Appointment first, then its busy Slots. A time taken meanwhile rejects (409).
   */
  async bookAppointment(
    slots: readonly Slot[],
    patient?: Reference<Patient>,
    options?: RequestOptions,
  ): Promise<Bundle<Appointment | Slot>> {
    const parameters: Parameters = {
      resourceType: 'Parameters',
      parameter: [
        ...slots.map((slot) => ({ name: 'slot', resource: slot })),
        ...(patient ? [{ name: 'patient-reference', valueReference: patient }] : []),
      ],
    };
    const booked = await this.post<Bundle<Appointment | Slot>>(
      this.fhirUrl('Appointment', '$book'),
      parameters,
      undefined,
      options,
    );
    // A new Appointment and busy Slots: the lists that show them are out of date.
    this.invalidateAfterWrite('Appointment');
    this.invalidateAfterWrite('Slot');
    return booked;
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
    // Once per response (not on every cache hit), and only whole resources: _fields, _elements
    // and _summary answer parts of resources, which must never stand in for a read.
    if (promise.isPending() && !/[?&](_fields|_elements|_summary)=/.test(url)) {
      promise.then(
        (bundle) => bundle?.entry?.forEach((entry) => this.cacheResource(entry.resource)),
        () => undefined,
      );
    }
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
      throw missingField('resourceType');
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
      throw missingField('resourceType');
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
      throw missingField('resourceType');
    }
    if (!resource.id) {
      throw missingField('id');
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
      throw missingField('resourceType');
    }
    if (!id) {
      throw missingField('id');
    }
    const result = await this.patch<T>(this.fhirUrl(resourceType, id), operations, options);
    this.invalidateAfterWrite(resourceType, id);
    this.cacheResource(result);
    return result;
  }

  async deleteResource(resourceType: string, id: string, options?: RequestOptions): Promise<void> {
    if (!resourceType) {
      throw missingField('resourceType');
    }
    if (!id) {
      throw missingField('id');
    }
    this.forgetAfterWrite(resourceType, id);
    await this.delete(this.fhirUrl(resourceType, id), options);
    // Reads that were in flight during the delete must not bring it back.
    this.invalidateAfterWrite(resourceType, id);
  }

  /** POST {type}/$validate: the outcome of validating without storing. */
  validateResource<T extends Resource>(resource: T, options?: RequestOptions): Promise<OperationOutcome> {
    if (!resource?.resourceType) {
      return Promise.reject(missingField('resourceType'));
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
      const written = new Set<string>();
      for (const entry of bundle.entry ?? []) {
        const method = entry.request?.method;
        const type = (entry.request?.url ?? '').split(/[/?]/)[0] || entry.resource?.resourceType;
        if (method && WRITE_METHODS.has(method) && type) {
          written.add(type);
        }
      }
      for (const type of written) {
        this.invalidateAfterWrite(type);
        this.cache.deleteWhere((key) => key.startsWith(this.fhirUrl(type) + '/'));
      }
    }
  }
}
