// The shared bottom of the Delete... and Bulk... dialogs: progress, an error, and Cancel + the action
// until the action ran, then Close.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import LinearProgress from '@mui/material/LinearProgress';

export interface BulkActionFooterProps {
  readonly busy: boolean;
  readonly busyLabel: string;
  readonly error: string | undefined;
  readonly done: boolean;
  readonly actionLabel: string;
  readonly actionColor?: 'primary' | 'error';
  readonly actionDisabled: boolean;
  readonly onAction: () => void;
  readonly onClose: () => void;
}

/** The progress and error lines (inside DialogContent). */
export function BulkActionStatus({
  busy,
  busyLabel,
  error,
}: Pick<BulkActionFooterProps, 'busy' | 'busyLabel' | 'error'>) {
  return (
    <>
      {busy && <LinearProgress aria-label={busyLabel} sx={{ mt: 1 }} />}
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </>
  );
}

/** The buttons (after DialogContent). */
export function BulkActionButtons(props: Omit<BulkActionFooterProps, 'busyLabel' | 'error'>) {
  if (props.done) {
    return (
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    );
  }
  return (
    <DialogActions>
      <Button onClick={props.onClose} disabled={props.busy}>
        Cancel
      </Button>
      <Button
        color={props.actionColor ?? 'primary'}
        variant="contained"
        disabled={props.busy || props.actionDisabled}
        onClick={props.onAction}
      >
        {props.actionLabel}
      </Button>
    </DialogActions>
  );
}
