// Attachment URLs the app can show (issue #8, SPEC §3 Attachment): a message's attachment is stored
// as a reference to its Binary ('Binary/{id}', as Medplum stores it), which never expires; what the
// API hands out is a signed, expiring storage URL that an <img> loads without an Authorization
// header. Only Binaries of this server are signed, and only for a caller who may read them.
import type { AuthDeps } from '../auth/auth-deps';
import { signBinaryUrl } from './signed-url';

export interface BinaryUrlSigner {
  /** The FHIR base of this server ('https://api.example/fhir/R4/'), for absolute Binary URLs. */
  readonly fhirBase: string;
  /** A signed storage URL for the Binary, valid for BINARY_URL_LIFETIME seconds. */
  sign(binaryId: string): Promise<string>;
}

export function createBinaryUrlSigner(
  deps: Pick<AuthDeps, 'keys' | 'config'>,
  fhirBase: string,
): BinaryUrlSigner {
  return {
    fhirBase,
    sign: (binaryId) =>
      signBinaryUrl(deps.keys, deps.config.baseUrl, binaryId, deps.config.binaryUrlLifetime),
  };
}

const BINARY_REFERENCE = /^Binary\/([A-Za-z0-9\-.]{1,64})$/;

/** The Binary id an attachment URL points at ('Binary/{id}' or '{fhirBase}Binary/{id}'), if any. */
export function binaryIdOfAttachmentUrl(url: string, fhirBase: string): string | undefined {
  const relative = url.startsWith(fhirBase) ? url.slice(fhirBase.length) : url;
  return BINARY_REFERENCE.exec(relative)?.[1];
}
