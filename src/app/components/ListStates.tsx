// Loading, empty and error states shared by every list and detail screen, so every list has them.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

export { LoadingState } from './LoadingState';

export function EmptyState({ text }: { text: string }) {
  return (
    <Typography color="text.secondary" sx={{ py: 3 }}>
      {text}
    </Typography>
  );
}

export function LoadError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const t = useT();
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t(shellStrings.tryAgain)}
          </Button>
        ) : undefined
      }
      sx={{ my: 2 }}
    >
      {error.message || t(shellStrings.somethingWrong)}
    </Alert>
  );
}
