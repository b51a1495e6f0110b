// Where Binary contents live: a small interface so an object store can replace the
// default, files on disk under BINARY_DIR. Contents are written to a temporary file and renamed
// into place, so a reader never sees half an upload, and the size limit is enforced while
// streaming (the upload is never held in memory whole).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OperationOutcomeError, payloadTooLarge } from '../../fhir';

export interface BinaryStorage {
  /** Stores `content` as `id`; throws a 413 OperationOutcomeError past `maxBytes`. Resolves to the size. */
  put(id: string, content: Readable, maxBytes: number): Promise<number>;
  /** The stored bytes, or undefined when there are none. */
  get(id: string): Promise<{ stream: Readable; size: number } | undefined>;
  delete(id: string): Promise<void>;
}

const SAFE_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export class FileBinaryStorage implements BinaryStorage {
  constructor(private readonly dir: string) {}

  private pathOf(id: string): string {
    // Ids come from the server (UUIDs); the check keeps any other string from leaving the directory.
    if (!SAFE_ID.test(id) || id.startsWith('.')) {
      throw new Error(`Unsafe Binary id '${id}'`);
    }
    // Two-character fan-out keeps directories small.
    return path.join(this.dir, id.slice(0, 2), id);
  }

  async put(id: string, content: Readable, maxBytes: number): Promise<number> {
    const target = this.pathOf(id);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) {
          callback(
            new OperationOutcomeError(
              payloadTooLarge(`Binary content is larger than the limit of ${maxBytes} bytes`),
            ),
          );
        } else {
          callback(null, chunk);
        }
      },
    });
    try {
      await pipeline(content, limit, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      // Drain what the client still sends so the 413 reaches it.
      content.resume();
      throw err;
    }
    return size;
  }

  async get(id: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.pathOf(id);
    try {
      const stat = await fs.promises.stat(file);
      return { stream: fs.createReadStream(file), size: stat.size };
    } catch {
      return undefined;
    }
  }

  async delete(id: string): Promise<void> {
    await fs.promises.rm(this.pathOf(id), { force: true });
  }
}
