// A red alert with the title 'Error' and the message (SPEC §8 "MFA error in a red 'Error' box";
// login errors as an alert with the message).
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

export function ErrorAlert({ message }: { message: string | undefined }) {
  const t = useT();
  if (!message) return null;
  return (
    <Alert severity="error" variant="filled">
      <AlertTitle>{t(shellStrings.error)}</AlertTitle>
      {message}
    </Alert>
  );
}
