// Attachment URLs in FHIR REST answers: an attachment is
// stored as 'Binary/{id}' (attachment-urls.ts), which an <img> cannot load without a header; reads,
// searches and write answers hand it out as a signed, expiring storage URL instead, as Medplum's
// REST API does and as $graphql does. Only Binaries of this server the caller may read are signed;
// any other URL is answered as stored. Notifications on /ws/subscriptions-r4 are signed with the same
// walk, for the subscription's owner (live/subscription-socket.ts).
import type { Binary } from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Repository, RepositoryContext } from '../repo';
import { entryFor, fieldsHiddenFrom } from '../repo/policy-match';
import type { BinaryUrlSigner } from './attachment-urls';
import { binaryIdOfAttachmentUrl } from './attachment-urls';

/** Whether the caller may read Binary `id`. */
export type BinaryReadCheck = (request: FastifyRequest, id: string) => Promise<boolean>;

/**
 * Whether `repo`'s user may read Binary `id`'s content: a read through it succeeds only for a Binary
 * they may see, and the policy entry it is read through must not hide its `data` (the content a
 * signed URL hands out).
 */
export function readableThrough(repo: Repository): (id: string) => Promise<boolean> {
  return (id) =>
    repo.readResource<Binary>('Binary', id).then(
      (binary) => !binaryContentHidden(repo.context, binary),
      () => false,
    );
}

/** Whether the caller's policy hides the Binary's content (`hiddenFields: ['data']` on its entry). */
export function binaryContentHidden(context: RepositoryContext, binary: Binary): boolean {
  if (!context.access || context.access.superAdmin) return false;
  const entry = entryFor(context, binary, 'read') ?? entryFor(context, binary, 'search');
  return fieldsHiddenFrom(context, entry, 'Binary').includes('data');
}

/** The check as a read through the caller's Repository. */
export function mayReadBinary(repoFor: (request: FastifyRequest) => Repository): BinaryReadCheck {
  return (request, id) => readableThrough(repoFor(request))(id);
}

/**
 * The Binary the `url` of `object` points at, if any. A Bundle entry's request (method and url
 * 'Binary/{id}' in a history or batch answer) names the resource, not its content: never signed.
 */
function binaryIdOf(object: Record<string, unknown>, signer: BinaryUrlSigner): string | undefined {
  const url = object.url;
  return typeof url === 'string' && !('method' in object) ? binaryIdOfAttachmentUrl(url, signer) : undefined;
}

/** The Binary ids named by attachment URLs anywhere in `value`. */
function binaryIdsIn(value: unknown, signer: BinaryUrlSigner, found: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) binaryIdsIn(item, signer, found);
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    const id = binaryIdOf(object, signer);
    if (id) found.add(id);
    for (const [key, field] of Object.entries(object)) {
      if (key !== 'url') binaryIdsIn(field, signer, found);
    }
  }
  return found;
}

function withUrls(value: unknown, signer: BinaryUrlSigner, signed: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withUrls(item, signer, signed));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const id = binaryIdOf(object, signer);
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(object)) {
    copy[key] = key === 'url' ? field : withUrls(field, signer, signed);
  }
  const url = id === undefined ? undefined : signed.get(id);
  if (url) copy.url = url;
  return copy;
}

/**
 * `value` with each `url` naming a Binary the caller may read replaced by a signed URL (one per
 * Binary per answer). The same object when there is nothing to sign.
 */
export async function signAttachmentUrls<T>(
  value: T,
  signer: BinaryUrlSigner,
  mayRead: (id: string) => Promise<boolean>,
): Promise<T> {
  const ids = [...binaryIdsIn(value, signer, new Set())];
  if (ids.length === 0) return value;
  const signed = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      if (await mayRead(id).catch(() => false)) signed.set(id, await signer.sign(id));
    }),
  );
  return signed.size === 0 ? value : (withUrls(value, signer, signed) as T);
}

/** Whether a serialized answer can hold a URL to sign (most cannot: no parsing or walking for them). */
export function mayNameBinary(text: string, signer: BinaryUrlSigner): boolean {
  return text.includes('Binary/') || text.includes(signer.storageBase);
}

/** Signs attachment URLs in every successful FHIR JSON answer of `app`'s routes. */
export function registerAttachmentSigning(
  app: FastifyInstance,
  signer: BinaryUrlSigner,
  mayRead: BinaryReadCheck,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (
      reply.statusCode >= 300 ||
      typeof payload !== 'string' ||
      !/json/.test(type) ||
      !mayNameBinary(payload, signer)
    ) {
      return payload;
    }
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    const answer = await signAttachmentUrls(body, signer, (id) => mayRead(request, id));
    return answer === body ? payload : JSON.stringify(answer);
  });
}
