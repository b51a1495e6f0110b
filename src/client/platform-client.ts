// The operations and platform calls of SPEC §7 on top of the FHIR REST calls: $graphql, $graph,
// bots, agents, $expand, bulk export, schema loading (§7 schema load, §8 messages), Binary uploads
// with progress, attachments, PDFs ('PDF creation not enabled'), signed media URLs (§9), invite and
// email. BloomClient (client.ts) extends this with the sign-in flows.
import type {
  Agent,
  Attachment,
  Binary,
  Bundle,
  Device,
  DocumentReference,
  Identifier,
  Media,
  OperationOutcome,
  ProjectMembership,
  Reference,
  Resource,
  SearchParameter,
  StructureDefinition,
  ValueSet,
} from '@medplum/fhirtypes';
import { createReference, getReferenceString, parseReference } from '../fhir/references';
import { FhirClient, missingField } from './fhir-client';
import type { FhirClientOptions } from './fhir-client';
import type { ReadablePromise } from './readable-promise';
import { FHIR_JSON, JSON_CONTENT_TYPE } from './request';
import type { RequestOptions } from './request';
import { SchemaStore, schemaQuery } from './schema-store';
import type { TypeSchema } from './schema-store';
import type { ClientSettings } from './settings';
import { SignedUrlCache } from './signed-urls';
import type { TokenManager } from './token-manager';
import type { UploadProgressListener } from './upload';

const TEXT_PLAIN = 'text/plain';
const OCTET_STREAM = 'application/octet-stream';

/** Makes a PDF from a document definition (pdfmake's, in Medplum); required by createPdf. */
export type PdfCreator = (
  docDefinition: unknown,
  tableLayouts?: Record<string, unknown>,
  fonts?: Record<string, unknown>,
) => Promise<Blob | Uint8Array | string>;

export interface PlatformClientOptions extends FhirClientOptions {
  /** Enables createPdf (SPEC §5 'PDF creation not enabled' without it). */
  createPdf?: PdfCreator;
}

export type BinarySource = string | Blob | ArrayBuffer | Uint8Array;

export interface CreateBinaryOptions {
  data: BinarySource;
  filename?: string;
  contentType?: string;
  onProgress?: UploadProgressListener;
  /** The resource whose access governs the Binary (sent as X-Security-Context, as in Medplum). */
  securityContext?: Reference;
}

/** MedplumClient's CreateMediaOptions / CreateDocumentReferenceOptions: the file, and fields of the resource. */
export interface CreateMediaOptions extends CreateBinaryOptions {
  additionalFields?: Partial<Media>;
}

export interface CreateDocumentReferenceOptions extends CreateBinaryOptions {
  additionalFields?: Partial<DocumentReference>;
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

export class PlatformClient extends FhirClient {
  private readonly schema = new SchemaStore();
  private readonly schemaRequests = new Map<string, Promise<TypeSchema>>();
  private readonly signedUrls: SignedUrlCache;
  private readonly pdfCreator: PdfCreator | undefined;

  constructor(settings: ClientSettings, tokens: TokenManager, options: PlatformClientOptions = {}) {
    super(settings, tokens, options);
    this.signedUrls = new SignedUrlCache(options.now);
    this.pdfCreator = options.createPdf;
  }

  /** Also forgets the signed media URLs in use. */
  override invalidateAll(): void {
    super.invalidateAll();
    this.signedUrls?.clear();
  }

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
        return Promise.reject(missingField('id'));
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
    const data = response?.data;
    return this.schema.indexSchemaLists(
      resourceType,
      data?.StructureDefinitionList,
      data?.SearchParameterList,
    );
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
    const securityContext = args.securityContext?.reference;
    const headers = securityContext
      ? { ...options.headers, 'X-Security-Context': securityContext }
      : options.headers;
    return this.post<Binary>(
      this.fhirSearchUrl('Binary', query),
      args.data,
      bodyContentType(args.data, args.contentType),
      { ...options, headers, onUploadProgress: args.onProgress ?? options.onUploadProgress },
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

  /**
   * MedplumClient's createMedia: a Media in 'preparation', the file uploaded with that Media as its
   * security context (unless one is given), then the Media 'completed' with the file as its content.
   */
  async createMedia(createMediaOptions: CreateMediaOptions, options?: RequestOptions): Promise<Media> {
    const { additionalFields, ...binaryOptions } = createMediaOptions;
    const media = await this.createResource<Media>({
      resourceType: 'Media',
      status: 'preparation',
      content: { contentType: createMediaOptions.contentType },
      ...additionalFields,
    });
    const content = await this.createAttachment(
      { ...binaryOptions, securityContext: binaryOptions.securityContext ?? createReference(media) },
      undefined,
      undefined,
      undefined,
      options,
    );
    return this.updateResource<Media>({ ...media, status: 'completed', content });
  }

  /**
   * MedplumClient's createDocumentReference: a 'current' DocumentReference, the file uploaded with it
   * as security context (unless one is given), then the DocumentReference pointing at the file.
   */
  async createDocumentReference(
    createDocumentReferenceOptions: CreateDocumentReferenceOptions,
    options?: RequestOptions,
  ): Promise<DocumentReference> {
    const { additionalFields, ...binaryOptions } = createDocumentReferenceOptions;
    const document = await this.createResource<DocumentReference>({
      resourceType: 'DocumentReference',
      status: 'current',
      content: [{ attachment: { contentType: createDocumentReferenceOptions.contentType } }],
      ...additionalFields,
    });
    const attachment = await this.createAttachment(
      { ...binaryOptions, securityContext: binaryOptions.securityContext ?? createReference(document) },
      undefined,
      undefined,
      undefined,
      options,
    );
    return this.updateResource<DocumentReference>({ ...document, content: [{ attachment }] });
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
