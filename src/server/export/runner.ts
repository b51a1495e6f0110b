// Runs bulk export jobs in the background: claims a job row, streams each type page by
// page into NDJSON files in BinaryStorage (one Binary per file), and checkpoints after every file,
// so a job interrupted by a stop or a crash resumes from its last stored file on any instance.
// One job at a time per instance; a periodic sweep picks up jobs whose runner's lease ran out.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Binary } from '@medplum/fhirtypes';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import type { BinaryStorage } from '../binary/storage';
import { Repository, systemContext } from '../repo';
import {
  checkpointFile,
  checkpointType,
  claimJob,
  deleteExpiredJobs,
  failJob,
  finishJob,
  releaseLease,
  renewLease,
} from './job-store';
import type { ExportFile, ExportJob } from './job-store';
import { readExportPage } from './page-reader';
import type { ExportScope } from './page-reader';

export const NDJSON = 'application/fhir+ndjson';

export interface ExportSettings {
  /** Resources read per query. */
  pageSize: number;
  /** Resources per NDJSON file: also the checkpoint interval. */
  fileSize: number;
  /** Seconds a runner holds a job without renewing; a crashed runner's job is resumed after it. */
  leaseSeconds: number;
  /** A job claimed this many times without finishing fails instead of being retried again. */
  maxAttempts: number;
  /** Hours a finished export (its manifest and files) is kept after it last changed. */
  retentionHours: number;
}

export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  pageSize: 1000,
  fileSize: 50_000,
  leaseSeconds: 30,
  maxAttempts: 5,
  retentionHours: 24,
};

/** Removes an export's files: their Binaries and their stored bytes. */
export async function deleteExportFiles(
  db: Database,
  storage: BinaryStorage,
  files: readonly ExportFile[],
): Promise<void> {
  const system = new Repository(db, systemContext());
  for (const file of files) {
    await system.deleteResource('Binary', file.binaryId);
    await storage.delete(file.binaryId);
  }
}

/** Thrown inside a job when it is no longer this runner's (cancelled, taken over, or the server stops). */
class JobReleased extends Error {}

export class ExportRunner {
  readonly id = crypto.randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly storage: BinaryStorage,
    private readonly log: FastifyBaseLogger,
    readonly settings: ExportSettings,
  ) {}

  /** Resumes jobs left by a stopped or crashed server, then sweeps for orphaned ones periodically. */
  start(): void {
    this.wake();
    const period = Math.max(250, (this.settings.leaseSeconds * 1000) / 2);
    this.timer = setInterval(() => this.wake(), period);
    this.timer.unref();
  }

  /** Runs waiting jobs now (after a kick-off) unless already running, then checks again. */
  wake(): void {
    if (this.stopping) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops after the current page; the job's lease is given back so the next start resumes it. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      await this.deleteExpired();
      for (;;) {
        if (this.stopping) return;
        const job = await claimJob(this.db, this.id, this.settings.leaseSeconds);
        if (!job) return;
        if (job.attempts > this.settings.maxAttempts) {
          await failJob(this.db, job.id, `Export interrupted ${job.attempts - 1} times; giving up`);
          continue;
        }
        await this.run(job);
      }
    } catch (err) {
      this.log.error({ err }, 'Bulk export runner failed');
    }
  }

  /** Finished exports past their retention go, files and Binaries with them. */
  private async deleteExpired(): Promise<void> {
    const files = await deleteExpiredJobs(this.db, this.settings.retentionHours);
    await deleteExportFiles(this.db, this.storage, files);
  }

  private async run(job: ExportJob): Promise<void> {
    try {
      await this.exportTypes(job);
      await finishJob(this.db, job.id, this.id, { status: 'completed' });
    } catch (err) {
      if (err instanceof JobReleased) {
        if (this.stopping) {
          await releaseLease(this.db, job.id, this.id);
        }
        return;
      }
      this.log.error({ err, job: job.id }, 'Bulk export failed');
      const message = err instanceof Error ? err.message : String(err);
      await finishJob(this.db, job.id, this.id, { status: 'error', error: message });
    }
  }

  /** Each type from the checkpoint on, in files of at most fileSize resources. */
  private async exportTypes(job: ExportJob): Promise<void> {
    const scope: ExportScope = {
      context: job.context,
      level: job.level,
      patients: job.patients,
      since: job.since,
      transactionTime: job.transactionTime,
    };
    for (let typeIndex = job.typeIndex; typeIndex < job.types.length; typeIndex++) {
      if (typeIndex !== job.typeIndex) {
        await this.hold(checkpointType(this.db, job.id, this.id, typeIndex));
      }
      let cursor = typeIndex === job.typeIndex ? job.cursor : undefined;
      for (;;) {
        const next = await this.writeFile(job, scope, typeIndex, cursor);
        if (next === undefined) break;
        cursor = next;
      }
    }
  }

  /** Throws JobReleased unless the job is still this runner's (checked, and the lease renewed, per page). */
  private async hold(stillMine: Promise<boolean>): Promise<void> {
    if (!(await stillMine) || this.stopping) {
      throw new JobReleased();
    }
  }

  /**
   * Streams one file of `types[typeIndex]` after `cursor` into storage, then stores its Binary and
   * the checkpoint in one transaction. Resolves to the next cursor, or undefined when the type is done.
   */
  private async writeFile(
    job: ExportJob,
    scope: ExportScope,
    typeIndex: number,
    cursor: string | undefined,
  ): Promise<string | undefined> {
    const { pageSize, fileSize, leaseSeconds } = this.settings;
    const resourceType = job.types[typeIndex];
    const first = await readExportPage(this.db, scope, resourceType, cursor, Math.min(pageSize, fileSize));
    if (first.lines.length === 0) {
      return undefined;
    }
    let count = 0;
    let lastId = cursor;
    const pages = async function* (this: ExportRunner): AsyncGenerator<string> {
      let page = first;
      for (;;) {
        count += page.lines.length;
        lastId = page.lastId;
        yield page.lines.join('\n') + '\n';
        if (page.lines.length < pageSize || count >= fileSize) return;
        await this.hold(renewLease(this.db, job.id, this.id, leaseSeconds));
        page = await readExportPage(
          this.db,
          scope,
          resourceType,
          lastId,
          Math.min(pageSize, fileSize - count),
        );
        if (page.lines.length === 0) return;
      }
    }.call(this);
    const binaryId = crypto.randomUUID();
    await this.storage.put(binaryId, Readable.from(pages), Number.MAX_SAFE_INTEGER);
    try {
      await this.db.transaction(async (tx) => {
        // Outside every project: only the export's own routes serve it, to the requester.
        await new Repository(this.db, systemContext(), tx).createResource<Binary>(
          { resourceType: 'Binary', contentType: NDJSON, securityContext: job.context.access?.profile },
          { assignedId: binaryId },
        );
        const file = { type: resourceType, binaryId, count };
        if (!(await checkpointFile(tx, job.id, this.id, file, typeIndex, lastId as string))) {
          throw new JobReleased();
        }
      });
    } catch (err) {
      await this.storage.delete(binaryId);
      throw err;
    }
    if (this.stopping) {
      throw new JobReleased();
    }
    return count < fileSize ? undefined : lastId;
  }
}
