// Reads a batch response entry by entry (SPEC §4 "Batches: an entry whose outcome is not ok"): which
// requests succeeded and, for the others, the outcome's text, so a bulk action can report each row.
import type { Bundle } from '@medplum/fhirtypes';

export interface RowResult {
  readonly id: string;
  readonly ok: boolean;
  /** The outcome text of a failed row. */
  readonly message?: string;
}

export function batchRowResults(ids: readonly string[], response: Bundle): RowResult[] {
  return ids.map((id, index) => {
    const entry = response.entry?.[index]?.response;
    const status = Number.parseInt(entry?.status ?? '', 10);
    if (status >= 200 && status < 300) return { id, ok: true };
    const issues = entry?.outcome?.issue ?? [];
    const text = issues
      .map((issue) => issue.details?.text ?? issue.diagnostics ?? issue.code)
      .filter(Boolean);
    return { id, ok: false, message: text.join('; ') || entry?.status || 'No response' };
  });
}
