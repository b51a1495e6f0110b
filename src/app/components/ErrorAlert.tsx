// A red alert with the title 'Error' and the message (SPEC §8 "MFA error in a red 'Error' box";
// login errors as an alert with the message).
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';

export function ErrorAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert severity="error" variant="filled">
      <AlertTitle>Error</AlertTitle>
      {message}
    </Alert>
  );
}
