// Why a resource cannot be shown, as a readable panel (a patient opening another patient's resource
// gets the server's 404/403 shown this way): a title by HTTP status, the
// server's own outcome text (SPEC §8: issues joined with '; '), and a way on.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { getStatus, operationOutcomeToString } from '../../../fhir/outcomes';
import { errorOutcome } from '../../api/errorOutcome';

function titleFor(status: number): string {
  if (status === 404 || status === 410) return 'Not found';
  if (status === 403) return 'Access denied';
  if (status === 401) return 'Signed out';
  return 'Could not load this resource';
}

export function ResourceProblem({ what, error }: { what: string; error: unknown }) {
  const outcome = errorOutcome(error);
  const status = getStatus(outcome);
  const explanation =
    status === 404 || status === 403
      ? `${what} does not exist, or your account may not see it.`
      : `${what} could not be loaded.`;
  return (
    <Alert severity={status >= 500 ? 'error' : 'warning'} role="alert" sx={{ my: 2 }}>
      <AlertTitle component="h2">{titleFor(status)}</AlertTitle>
      <p style={{ margin: '0 0 8px' }}>{explanation}</p>
      <p style={{ margin: '0 0 8px' }}>Server: {operationOutcomeToString(outcome)}</p>
      <Link component={RouterLink} to="/">
        Go to the home page
      </Link>
    </Alert>
  );
}
