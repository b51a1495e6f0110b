// The Export dialog (SPEC §2; §9 export limit 1000): the table's whole search, not just its page,
// as CSV of the chosen fields or as a FHIR transaction Bundle of the whole resources.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { SearchRequest } from '../../../fhir/search';
import { useBloomClient } from '../../session/BloomClientContext';
import { resourcesToCsv } from './csvExport';
import { downloadFile } from './downloadFile';
import { EXPORT_LIMIT, readExportRows } from './exportRows';
import { outcomeText } from './SearchErrorPanel';
import { resourcesToTransaction } from './transactionBundle';

export interface ExportDialogProps {
  readonly request: SearchRequest;
  readonly fields: readonly string[];
  readonly onClose: () => void;
}

export function ExportDialog({ request, fields, onClose }: ExportDialogProps) {
  const client = useBloomClient();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const stamp = new Date().toISOString().slice(0, 10);

  const run = async (format: 'csv' | 'bundle') => {
    setBusy(true);
    setError(undefined);
    try {
      const rows = await readExportRows(client, request, format === 'csv' ? fields : undefined);
      if (format === 'csv') {
        const text = resourcesToCsv(fields, rows as unknown as Record<string, unknown>[]);
        downloadFile(`${request.resourceType}-${stamp}.csv`, 'text/csv;charset=utf-8', '\ufeff' + text);
      } else {
        const bundle = resourcesToTransaction(rows);
        downloadFile(
          `${request.resourceType}-${stamp}.json`,
          'application/fhir+json',
          JSON.stringify(bundle, null, 2),
        );
      }
      onClose();
    } catch (err) {
      setError(outcomeText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Export</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          <Button variant="contained" disabled={busy} onClick={() => void run('csv')}>
            Export as CSV
          </Button>
          <Button variant="contained" disabled={busy} onClick={() => void run('bundle')}>
            Export as Transaction Bundle
          </Button>
          <Typography variant="body2" color="text.secondary">
            Limited to {EXPORT_LIMIT} records
          </Typography>
          {busy && <LinearProgress aria-label="Exporting" />}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
      </DialogActions>
    </Dialog>
  );
}
