// Ways into the request pipeline, in the manner of ky's hooks: code outside the client (a log, a
// header of its own, a metric) joins every request's life without a second transport beside it.
// beforeRequest sees each attempt's headers and may change them; beforeRetry is told before the
// pipeline waits to try again (throwing stops the retry with that error); afterResponse sees each
// answer as it arrives, before the retry and 401 rules read it, and may replace it.
import type { HttpMethod } from './request';

export interface OutgoingRequest {
  readonly method: HttpMethod;
  readonly url: string;
  /** The headers of this attempt, Authorization included; a beforeRequest hook may edit them. */
  readonly headers: Record<string, string>;
  /** 0 for the first attempt, 1 for the first retry... */
  readonly attempt: number;
}

export interface RetryInfo {
  readonly method: HttpMethod;
  readonly url: string;
  /** The attempt that failed (0-based). */
  readonly attempt: number;
  /** How long the pipeline waits before the next attempt, in ms. */
  readonly delay: number;
  /** The status that is retried (5xx, 429...), when the server answered. */
  readonly status?: number;
  /** The network error that is retried, when it did not. */
  readonly error?: unknown;
}

export type BeforeRequestHook = (request: OutgoingRequest) => void | Promise<void>;
export type BeforeRetryHook = (retry: RetryInfo) => void | Promise<void>;
export type AfterResponseHook = (
  response: Response,
  request: OutgoingRequest,
) => Response | void | Promise<Response | void>;

export interface PipelineHooks {
  beforeRequest?: readonly BeforeRequestHook[];
  beforeRetry?: readonly BeforeRetryHook[];
  afterResponse?: readonly AfterResponseHook[];
}

/** The hooks in the order they were added; each set can be removed again. */
export class HookList {
  private readonly sets: PipelineHooks[] = [];

  /** Adds a set of hooks; returns the function that removes it. */
  add(hooks: PipelineHooks): () => void {
    this.sets.push(hooks);
    return () => {
      const index = this.sets.indexOf(hooks);
      if (index >= 0) this.sets.splice(index, 1);
    };
  }

  async beforeRequest(request: OutgoingRequest): Promise<void> {
    for (const set of [...this.sets]) {
      for (const hook of set.beforeRequest ?? []) await hook(request);
    }
  }

  async beforeRetry(retry: RetryInfo): Promise<void> {
    for (const set of [...this.sets]) {
      for (const hook of set.beforeRetry ?? []) await hook(retry);
    }
  }

  /** Each hook sees the response the one before it returned. */
  async afterResponse(response: Response, request: OutgoingRequest): Promise<Response> {
    let current = response;
    for (const set of [...this.sets]) {
      for (const hook of set.afterResponse ?? []) current = (await hook(current, request)) ?? current;
    }
    return current;
  }
}

/** The verbose client's log as hooks: method, URL and status, never headers or bodies. */
export function loggingHooks(log: (line: string) => void = console.log): PipelineHooks {
  return {
    beforeRequest: [({ method, url }) => log(`> ${method} ${url}`)],
    afterResponse: [({ status }, { method, url }) => log(`< ${status} ${method} ${url}`)],
    beforeRetry: [({ method, url, delay }) => log(`${method} ${url}: retrying in ${delay} ms`)],
  };
}
