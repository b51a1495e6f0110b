// OperationOutcome helpers (SPEC §3 "Outcome resource", SPEC §8 error catalogue).
// Well-known outcomes carry an id so getStatus can map them to HTTP statuses without guessing;
// ad-hoc outcomes are mapped by their first error issue's FHIR IssueType code.
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';

type IssueCode = OperationOutcomeIssue['code'];

function outcome(id: string | undefined, issue: OperationOutcomeIssue): OperationOutcome {
  return id === undefined
    ? { resourceType: 'OperationOutcome', issue: [issue] }
    : { resourceType: 'OperationOutcome', id, issue: [issue] };
}

function info(id: string, text: string): OperationOutcome {
  return outcome(id, { severity: 'information', code: 'informational', details: { text } });
}

function error(id: string | undefined, code: IssueCode, text: string, expression?: string): OperationOutcome {
  const issue: OperationOutcomeIssue = { severity: 'error', code, details: { text } };
  if (expression) {
    issue.expression = [expression];
  }
  return outcome(id, issue);
}

export const allOk: OperationOutcome = info('ok', 'All OK');
export const created: OperationOutcome = info('created', 'Created');
export const accepted: OperationOutcome = info('accepted', 'Accepted');
export const notModified: OperationOutcome = info('not-modified', 'Not Modified');
export const notFound: OperationOutcome = error('not-found', 'not-found', 'Not found');
export const gone: OperationOutcome = error('gone', 'deleted', 'Gone');
export const unauthorized: OperationOutcome = error('unauthorized', 'login', 'Unauthorized');
export const forbidden: OperationOutcome = error('forbidden', 'forbidden', 'Forbidden');

export function badRequest(details: string, expression?: string): OperationOutcome {
  return error(undefined, 'invalid', details, expression);
}

/** One outcome for many validation issues (each keeps its own code and expression). */
export function validationOutcome(issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

export function conflict(details: string): OperationOutcome {
  return error('conflict', 'conflict', details);
}

// Issue code 'processing', as Medplum's preconditionFailed (its clients read the status from the id).
export function preconditionFailed(details: string): OperationOutcome {
  return error('precondition-failed', 'processing', details);
}

export function payloadTooLarge(details: string): OperationOutcome {
  return error('too-large', 'too-long', details);
}

export function unsupportedMediaType(details: string): OperationOutcome {
  return error('unsupported-media-type', 'not-supported', details);
}

export function tooManyRequests(details: string): OperationOutcome {
  return error('too-many-requests', 'throttled', details);
}

/** A server this one depends on (a mail server, say) failed: the text says which and how. */
export function badGateway(details: string): OperationOutcome {
  return error('bad-gateway', 'transient', details);
}

/** The client sees a generic text; the cause goes to diagnostics (message only: stacks stay in logs). */
export function serverError(err: Error): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'exception',
        details: { text: 'Internal server error' },
        diagnostics: err.message || err.name,
      },
    ],
  };
}

const statusById: Record<string, number> = {
  ok: 200,
  created: 201,
  accepted: 202,
  'not-modified': 304,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'precondition-failed': 412,
  'too-large': 413,
  'unsupported-media-type': 415,
  'too-many-requests': 429,
  'bad-gateway': 502,
  'service-unavailable': 503,
};

// FHIR R4 IssueType codes (http://hl7.org/fhir/issue-type) to HTTP statuses.
const statusByCode: Partial<Record<IssueCode, number>> = {
  invalid: 400,
  structure: 400,
  required: 400,
  value: 400,
  invariant: 400,
  processing: 400,
  'business-rule': 400,
  'code-invalid': 400,
  extension: 400,
  'not-supported': 400,
  'too-costly': 400,
  'multiple-matches': 412,
  login: 401,
  unknown: 401,
  expired: 401,
  security: 403,
  forbidden: 403,
  suppressed: 403,
  'not-found': 404,
  conflict: 409,
  duplicate: 409,
  'lock-error': 409,
  deleted: 410,
  'too-long': 413,
  throttled: 429,
  exception: 500,
  transient: 500,
  'no-store': 500,
  timeout: 500,
  incomplete: 500,
};

function isErrorIssue(issue: OperationOutcomeIssue): boolean {
  return issue.severity === 'error' || issue.severity === 'fatal';
}

/** The HTTP status for an outcome: its well-known id first, else its first error issue's code. */
export function getStatus(value: OperationOutcome): number {
  const byId = value.id === undefined ? undefined : statusById[value.id];
  if (byId !== undefined) {
    return byId;
  }
  const firstError = value.issue?.find(isErrorIssue);
  if (!firstError) {
    return 200;
  }
  return statusByCode[firstError.code] ?? 400;
}

export function isOk(value: OperationOutcome): boolean {
  const status = getStatus(value);
  return status >= 200 && status < 400;
}

function issueToString(issue: OperationOutcomeIssue): string {
  const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
  return issue.expression?.length ? `${text} (${issue.expression.join(', ')})` : text;
}

/** The issues' texts (with their expression, when there is one) joined with '; ' (SPEC §8). */
export function operationOutcomeToString(value: OperationOutcome): string {
  const parts = (value.issue ?? []).map(issueToString);
  return parts.length > 0 ? parts.join('; ') : 'Unknown error';
}

export class OperationOutcomeError extends Error {
  readonly outcome: OperationOutcome;

  constructor(value: OperationOutcome, cause?: unknown) {
    super(operationOutcomeToString(value), cause === undefined ? undefined : { cause });
    this.name = 'OperationOutcomeError';
    this.outcome = value;
  }
}

export function isOperationOutcome(value: unknown): value is OperationOutcome {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resourceType?: unknown }).resourceType === 'OperationOutcome'
  );
}

/** Any thrown value as an outcome: known outcomes pass through, everything else is a server error. */
export function normalizeError(err: unknown): OperationOutcome {
  if (err instanceof OperationOutcomeError) {
    return err.outcome;
  }
  if (isOperationOutcome(err)) {
    return err;
  }
  if (err instanceof Error) {
    return serverError(err);
  }
  return serverError(new Error(typeof err === 'string' ? err : String(err)));
}
