// Splits an OperationOutcome for a form (SPEC §5 "Per-field server issues show under the matching field";
// SPEC §8 "Validation outcomes attach to fields by the issue's expression").
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';

export interface FormOutcome<Field extends string> {
  /** Details text of the issues whose expression names one of the form's fields. */
  readonly fieldErrors: Partial<Record<Field, string>>;
  /** The remaining issues' texts joined with '; ' (SPEC §8), or undefined when every issue had a field. */
  readonly message: string | undefined;
}

function issueText(issue: OperationOutcomeIssue): string {
  return issue.details?.text ?? issue.diagnostics ?? issue.code;
}

/** 'Patient.address[0].city' lies within the field 'Patient.address' (and within itself). */
function isPathWithin(path: string, field: string): boolean {
  if (!path.startsWith(field)) return false;
  const next = path.charAt(field.length);
  return next === '' || next === '.' || next === '[';
}

export function splitOutcomeByField<Field extends string>(
  outcome: OperationOutcome,
  fields: readonly Field[],
): FormOutcome<Field> {
  const fieldErrors: Partial<Record<Field, string>> = {};
  const rest: string[] = [];
  for (const issue of outcome.issue ?? []) {
    const field = fields.find((name) => issue.expression?.some((path) => isPathWithin(path, name)));
    if (field !== undefined) {
      fieldErrors[field] = fieldErrors[field]
        ? `${fieldErrors[field]}; ${issueText(issue)}`
        : issueText(issue);
    } else {
      rest.push(issueText(issue));
    }
  }
  return { fieldErrors, message: rest.length > 0 ? rest.join('; ') : undefined };
}
