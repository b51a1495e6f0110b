// Attachment URLs the app can show (issue #8, SPEC §3 Attachment): a message's attachment is stored
// as a reference to its Binary ('Binary/{id}', as Medplum stores it), which never expires; what the
// API hands out is a signed, expiring storage URL that an <img> loads without an Authorization
// header. Only Binaries of this server are signed, and only for a caller who may read them. A
// signed URL written back into a resource (the app puts what createAttachment answered into its
// Communication) is stored as the reference again, as Medplum does, so it never goes stale.
import { decodeJwt } from 'jose';
import type { AuthDeps } from '../auth/auth-deps';
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
  deps: Pick<AuthDeps, 'keys' | 'config'>,
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
 * 'Binary/{id}' when `url` is a signed storage URL made by a Bloom server (its signature names this
 * Binary, and the URL starts with the signer's own base), else undefined. The signature is read,
 * not verified: the reference grants nothing by itself, since reads sign it only for a caller who
 * may read that Binary.
 */
export function binaryReferenceOfSignedUrl(url: string): string | undefined {
  const question = url.indexOf('?');
  const slash = url.lastIndexOf('/' + STORAGE_PATH, question < 0 ? undefined : question);
  if (question < 0 || slash < 0) return undefined;
  const match = STORAGE_URL.exec(url.slice(slash + 1));
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
    typeof claims.iss === 'string' &&
    url.slice(0, slash + 1) === claims.iss;
  return ours ? reference : undefined;
}

/** Whether `value` holds any string that might be a signed storage URL (cheap test before copying). */
function mentionsStorage(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(STORAGE_PATH);
  if (Array.isArray(value)) return value.some(mentionsStorage);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(mentionsStorage);
  return false;
}

function withReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withReferences);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const reference =
      key === 'url' && typeof field === 'string' ? binaryReferenceOfSignedUrl(field) : undefined;
    copy[key] = reference ?? withReferences(field);
  }
  return copy;
}

/**
 * `resource` as it is stored: every `url` (Attachment.url, wherever it sits) that is a signed
 * storage URL becomes 'Binary/{id}', which never expires. Untouched (same object) when there is none.
 */
export function storedAttachmentUrls<T>(resource: T): T {
  return mentionsStorage(resource) ? (withReferences(resource) as T) : resource;
}
