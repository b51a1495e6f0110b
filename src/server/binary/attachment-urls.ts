// Attachment URLs the app can show: a message's attachment is stored
// as a reference to its Binary ('Binary/{id}', as Medplum stores it), which never expires; what the
// API hands out is a signed, expiring storage URL that an <img> loads without an Authorization
// header. Only Binaries of this server are signed, and only for a caller who may read them. A
// signed URL of this server written back into a resource (the app puts what createAttachment
// answered into its Communication) is stored as the reference again, as Medplum does, so it never
// goes stale; another server's URL is stored as written.
import { decodeJwt } from 'jose';
import type { StoredUrlRewriter } from '../repo';
import type { ServerServices } from '../services';
import { BINARY_URL_PURPOSE, signBinaryUrl, STORAGE_PATH } from './signed-url';

export interface BinaryUrlSigner {
  /** The FHIR base of this server ('https://api.example/fhir/R4/'), for absolute Binary URLs. */
  readonly fhirBase: string;
  /** Where this server's signed storage URLs start ('https://api.example/storage/'). */
  readonly storageBase: string;
  /** A signed storage URL for the Binary, valid for BINARY_URL_LIFETIME seconds. */
  sign(binaryId: string): Promise<string>;
}

export function createBinaryUrlSigner(
  deps: Pick<ServerServices, 'keys' | 'config'>,
  fhirBase: string,
): BinaryUrlSigner {
  return {
    fhirBase,
    storageBase: deps.config.baseUrl + STORAGE_PATH,
    sign: (binaryId) =>
      signBinaryUrl(deps.keys, deps.config.baseUrl, binaryId, deps.config.binaryUrlLifetime),
  };
}

const BINARY_REFERENCE = /^Binary\/([A-Za-z0-9\-.]{1,64})$/;
/** 'storage/{id}?…' after the base URL: the shape of signBinaryUrl's URLs. */
const STORAGE_URL = /^storage\/([A-Za-z0-9\-.]{1,64})\?(.*)$/;

/**
 * The Binary id an attachment URL points at, if any: 'Binary/{id}', '{fhirBase}Binary/{id}', or a
 * signed storage URL of this server (stored before writes kept references, or expired).
 */
export function binaryIdOfAttachmentUrl(
  url: string,
  signer: Pick<BinaryUrlSigner, 'fhirBase' | 'storageBase'>,
): string | undefined {
  if (url.startsWith(signer.storageBase)) {
    return STORAGE_URL.exec(STORAGE_PATH + url.slice(signer.storageBase.length))?.[1];
  }
  const relative = url.startsWith(signer.fhirBase) ? url.slice(signer.fhirBase.length) : url;
  return BINARY_REFERENCE.exec(relative)?.[1];
}

/**
 * 'Binary/{id}' when `url` is a signed storage URL of this server: it starts with `storageBase`
 * (BinaryUrlSigner.storageBase) and its signature names this Binary, for this purpose, issued by
 * this server's base. Else undefined, so another Bloom server's URL (a different base) is stored as
 * written, never as a local Binary it may not be. The signature is read, not verified: the
 * reference grants nothing by itself, since reads sign it only for a caller who may read that Binary.
 */
export function binaryReferenceOfSignedUrl(url: string, storageBase: string): string | undefined {
  if (!url.startsWith(storageBase)) return undefined;
  const match = STORAGE_URL.exec(STORAGE_PATH + url.slice(storageBase.length));
  const signature = match && new URLSearchParams(match[2]).get('Signature');
  if (!match || !signature) return undefined;
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(signature);
  } catch {
    return undefined;
  }
  const reference = `Binary/${match[1]}`;
  const ours =
    claims.purpose === BINARY_URL_PURPOSE &&
    claims.sub === reference &&
    claims.iss === storageBase.slice(0, -STORAGE_PATH.length);
  return ours ? reference : undefined;
}

/** Whether `value` holds any string that might be a signed storage URL (cheap test before copying). */
function mentionsStorage(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(STORAGE_PATH);
  if (Array.isArray(value)) return value.some(mentionsStorage);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(mentionsStorage);
  return false;
}

function withReferences(value: unknown, storageBase: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withReferences(item, storageBase));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const reference =
      key === 'url' && typeof field === 'string' ? binaryReferenceOfSignedUrl(field, storageBase) : undefined;
    copy[key] = reference ?? withReferences(field, storageBase);
  }
  return copy;
}

/**
 * `resource` as it is stored: every `url` (Attachment.url, wherever it sits) that is a signed
 * storage URL of this server (`storageBase`) becomes 'Binary/{id}', which never expires. Untouched
 * (same object) when there is none. Without a base (a Repository of the server's own work: seed,
 * system, tests) nothing is rewritten: which URLs are ours is unknown, and a rewrite could make
 * another server's URL a local reference. This server's storage URL stored as sent still works:
 * answers recognise it and sign it afresh (binaryIdOfAttachmentUrl).
 */
export function storedAttachmentUrls<T>(resource: T, storageBase: string | undefined): T {
  return storageBase && mentionsStorage(resource) ? (withReferences(resource, storageBase) as T) : resource;
}

/**
 * The Repository setting (RepositorySettings.rewriteStoredUrls) the server gives writes from the
 * API: this server's signed storage URLs (under `storageBase`) are stored as 'Binary/{id}'.
 */
export function storedAttachmentUrlRewriter(storageBase: string): StoredUrlRewriter {
  return (resource) => storedAttachmentUrls(resource, storageBase);
}
