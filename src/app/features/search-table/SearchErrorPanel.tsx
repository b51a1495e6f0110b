// A failed search shown inside the table (SPEC §8 "search error as raw JSON under the table"): the
// outcome's issues as readable text first, then the raw JSON for whoever needs the details.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../../fhir/outcomes';

function outcomeOf(error: unknown): OperationOutcome | undefined {
  if (error instanceof OperationOutcomeError) return error.outcome;
  const outcome = (error as { outcome?: OperationOutcome } | undefined)?.outcome;
  return outcome?.resourceType === 'OperationOutcome' ? outcome : undefined;
}

export function outcomeText(error: unknown): string {
  const outcome = outcomeOf(error);
  const issues = (outcome?.issue ?? [])
    .map((issue) => issue.details?.text ?? issue.diagnostics ?? issue.code)
    .filter(Boolean);
  if (issues.length > 0) return issues.join('; ');
  return error instanceof Error ? error.message : String(error);
}

export function SearchErrorPanel({ error }: { error: unknown }) {
  const outcome = outcomeOf(error);
  const raw = outcome ?? { message: error instanceof Error ? error.message : String(error) };
  return (
    <Box sx={{ p: 2, width: '100%', overflow: 'auto' }}>
      <Alert severity="error" sx={{ mb: 1 }}>
        {outcomeText(error)}
      </Alert>
      <Box
        component="pre"
        aria-label="Error details"
        sx={{ m: 0, p: 1, fontSize: 12, bgcolor: 'grey.100', color: 'text.primary', whiteSpace: 'pre-wrap' }}
      >
        {JSON.stringify(raw, null, 2)}
      </Box>
    </Box>
  );
}
