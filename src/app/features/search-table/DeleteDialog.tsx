// Delete... (SPEC §2 toolbar): after confirmation, the selected resources go in one batch Bundle of
// DELETE entries (SPEC §7 batch); each row's outcome is reported, so one refused delete does not hide
// the others.
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Bundle } from '@medplum/fhirtypes';
import { useId, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import { batchRowResults, type RowResult } from './batchResults';
import { BulkActionButtons, BulkActionStatus } from './BulkActionFooter';
import { RowResultsList } from './RowResultsList';
import { outcomeText } from './SearchErrorPanel';

export function deleteBatch(resourceType: string, ids: readonly string[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: ids.map((id) => ({ request: { method: 'DELETE', url: `${resourceType}/${id}` } })),
  };
}

export interface DeleteDialogProps {
  readonly resourceType: string;
  readonly ids: readonly string[];
  readonly onClose: () => void;
  /** Called once the batch ran (some rows may have failed). */
  readonly onDeleted: () => void;
}

export function DeleteDialog({ resourceType, ids, onClose, onDeleted }: DeleteDialogProps) {
  const client = useBloomClient();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<RowResult[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [targets] = useState(() => [...ids]);

  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const response = await client.executeBatch(deleteBatch(resourceType, targets));
      setResults(batchRowResults(targets, response));
      onDeleted();
    } catch (err) {
      setError(outcomeText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Delete</DialogTitle>
      <DialogContent>
        {results ? (
          <RowResultsList resourceType={resourceType} results={results} verb="deleted" />
        ) : (
          <DialogContentText>
            {`Delete ${targets.length} selected ${resourceType} resource${targets.length === 1 ? '' : 's'}? This cannot be undone.`}
          </DialogContentText>
        )}
        <BulkActionStatus busy={busy} busyLabel="Deleting" error={error} />
      </DialogContent>
      <BulkActionButtons
        busy={busy}
        done={results !== undefined}
        actionLabel="Delete"
        actionColor="error"
        actionDisabled={targets.length === 0}
        onAction={() => void run()}
        onClose={onClose}
      />
    </Dialog>
  );
}
