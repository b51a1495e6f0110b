// Auto-batching (SPEC §3 autoBatchTime, §4 "Batches"): GETs of FHIR URLs issued within the batch
// window go out as one batch Bundle. Each caller gets its own entry's answer; an entry whose status
// is not 2xx rejects only its caller. When the batch request itself fails, or the response lacks an
// entry, every caller it concerns is rejected: nobody is left waiting.
import type { Bundle, BundleEntry, OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError, isOperationOutcome, notFound } from '../fhir/outcomes';
import type { RequestOptions } from './request';

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface AutoBatcherOptions {
  /** Absolute FHIR base URL ending in '/'; only URLs under it are batched. */
  fhirBaseUrl: string;
  /** The batch window in ms (> 0). */
  delay: number;
  /** Sends a GET on its own (when the window closes with a single URL in it). */
  sendOne: (url: string) => Promise<unknown>;
  /** POSTs a batch Bundle to the FHIR base and returns the batch-response Bundle. */
  sendBatch: (bundle: Bundle) => Promise<Bundle>;
}

function entryStatus(entry: BundleEntry | undefined): number {
  return Number.parseInt(entry?.response?.status ?? '', 10);
}

function entryOutcome(entry: BundleEntry | undefined, status: number): OperationOutcome {
  if (entry?.response?.outcome) {
    return entry.response.outcome;
  }
  if (isOperationOutcome(entry?.resource)) {
    return entry.resource;
  }
  if (status === 404) {
    return notFound;
  }
  const text = entry
    ? `Batch entry failed with status ${entry.response?.status ?? 'unknown'}`
    : 'Missing batch entry';
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text } }],
  };
}

export class AutoBatcher {
  private readonly options: AutoBatcherOptions;
  /** Callers waiting in the open window, by URL (one entry per distinct URL). */
  private queue = new Map<string, Waiter[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: AutoBatcherOptions) {
    this.options = options;
  }

  /**
   * Whether a GET can join a batch: a FHIR URL with none of the per-request options a batch
   * entry cannot carry (own headers, abort signal, redirects, polling).
   */
  canBatch(url: string, options: RequestOptions): boolean {
    return (
      url.startsWith(this.options.fhirBaseUrl) &&
      url.length > this.options.fhirBaseUrl.length &&
      options.headers === undefined &&
      options.signal === undefined &&
      !options.followRedirectOnOk &&
      !options.followRedirectOnCreated &&
      !options.pollStatusOnAccepted
    );
  }

  /** Requests waiting for the window to close. */
  get pending(): number {
    let count = 0;
    for (const waiters of this.queue.values()) {
      count += waiters.length;
    }
    return count;
  }

  enqueue<T>(url: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiters = this.queue.get(url) ?? [];
      waiters.push({ resolve: resolve as (value: unknown) => void, reject });
      this.queue.set(url, waiters);
      this.timer ??= setTimeout(() => this.flush(), this.options.delay);
    });
  }

  /** Closes the window now and sends what is in it. */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const queue = this.queue;
    this.queue = new Map();
    if (queue.size === 0) {
      return Promise.resolve();
    }
    if (queue.size === 1) {
      const [[url, waiters]] = [...queue];
      return this.options.sendOne(url).then(
        (value) => waiters.forEach((w) => w.resolve(value)),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      );
    }
    return this.sendBatch(queue);
  }

  private async sendBatch(queue: Map<string, Waiter[]>): Promise<void> {
    const urls = [...queue.keys()];
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'batch',
      entry: urls.map((url) => ({
        request: { method: 'GET', url: url.slice(this.options.fhirBaseUrl.length) },
      })),
    };
    let response: Bundle;
    try {
      response = await this.options.sendBatch(bundle);
    } catch (err) {
      for (const waiters of queue.values()) {
        waiters.forEach((w) => w.reject(err));
      }
      return;
    }
    urls.forEach((url, index) => {
      const entry = response?.entry?.[index];
      const status = entryStatus(entry);
      const waiters = queue.get(url) ?? [];
      if (status >= 200 && status < 300) {
        waiters.forEach((w) => w.resolve(entry?.resource));
      } else {
        const error = new OperationOutcomeError(entryOutcome(entry, status));
        waiters.forEach((w) => w.reject(error));
      }
    });
  }
}
