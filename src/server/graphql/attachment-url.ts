// Attachment.url in GraphQL answers: a Binary of this server becomes a signed, expiring
// URL when the caller may read that Binary (through the request's loader, so access control and
// batching apply); any other URL, or a Binary the caller may not read, is answered as stored.
import { binaryIdOfAttachmentUrl } from '../binary/attachment-urls';
import type { GraphQLContext } from './context';

export async function resolveAttachmentUrl(
  source: Record<string, unknown>,
  _args: unknown,
  context: GraphQLContext,
): Promise<string | null> {
  const url = source.url;
  if (typeof url !== 'string') {
    return null;
  }
  const signer = context.binaryUrls;
  const binaryId = signer ? binaryIdOfAttachmentUrl(url, signer) : undefined;
  if (!signer || !binaryId) {
    return url;
  }
  try {
    await context.loader.load(`Binary/${binaryId}`);
  } catch {
    return url;
  }
  return signer.sign(binaryId);
}
