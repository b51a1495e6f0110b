// Bot code lives in Binaries (Medplum's Bot.executableCode / sourceCode): the bytes in
// BinaryStorage like every upload, the Binary resource in the bot's project.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Attachment, Binary } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { BinaryStorage } from '../binary/storage';
import type { Repository } from '../repo';

export const BOT_CODE_TYPE = 'application/javascript';
/** Bot code larger than this is refused at deploy (Medplum bots are single bundled files). */
export const MAX_BOT_CODE_BYTES = 5 * 1024 * 1024;

/** Stores `code` as a new Binary and answers the Attachment that points at it. */
export async function saveBotCode(
  repo: Repository,
  storage: BinaryStorage,
  code: string,
  filename: string,
): Promise<Attachment> {
  const id = crypto.randomUUID();
  await storage.put(id, Readable.from([Buffer.from(code, 'utf8')]), MAX_BOT_CODE_BYTES);
  try {
    await repo.createResource<Binary>(
      { resourceType: 'Binary', contentType: BOT_CODE_TYPE },
      { assignedId: id },
    );
  } catch (err) {
    await storage.delete(id);
    throw err;
  }
  return { contentType: BOT_CODE_TYPE, url: `Binary/${id}`, title: filename };
}

/** The code an Attachment points at ('Binary/{id}'), read with `repo`'s rights. */
export async function loadBotCode(
  repo: Repository,
  storage: BinaryStorage,
  attachment: Attachment,
): Promise<string> {
  const match = /^(?:.*\/)?Binary\/([A-Za-z0-9\-.]{1,64})$/.exec(attachment.url ?? '');
  if (!match) {
    throw new OperationOutcomeError(badRequest('Bot executableCode does not point at a Binary'));
  }
  await repo.readResource<Binary>('Binary', match[1]);
  const content = await storage.get(match[1]);
  if (!content) {
    throw new OperationOutcomeError(badRequest('Bot code is missing from storage'));
  }
  const chunks: Buffer[] = [];
  for await (const chunk of content.stream) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  }
  return Buffer.concat(chunks).toString('utf8');
}
