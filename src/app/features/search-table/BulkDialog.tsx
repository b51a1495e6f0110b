// Bulk... (SPEC §2 toolbar; SPEC §7 POST Bot/{id}/$execute): runs one chosen Bot on each selected
// resource, the resource as the bot's input, one after another, and reports each row's result.
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Bot, Resource } from '@medplum/fhirtypes';
import { useEffect, useId, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import type { RowResult } from './batchResults';
import { BulkActionButtons, BulkActionStatus } from './BulkActionFooter';
import { RowResultsList } from './RowResultsList';
import { outcomeText } from './SearchErrorPanel';

export interface BulkDialogProps {
  readonly resourceType: string;
  readonly ids: readonly string[];
  readonly onClose: () => void;
}

export function BulkDialog({ resourceType, ids, onClose }: BulkDialogProps) {
  const client = useBloomClient();
  const titleId = useId();
  const [bots, setBots] = useState<Bot[] | undefined>(undefined);
  const [botId, setBotId] = useState('');
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<RowResult[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [targets] = useState(() => [...ids]);

  useEffect(() => {
    let active = true;
    client.searchResources<Bot>('Bot', { _count: '100', _sort: 'name' }).then(
      (found) => active && setBots([...found]),
      (err: unknown) => {
        if (!active) return;
        setBots([]);
        setError(outcomeText(err));
      },
    );
    return () => {
      active = false;
    };
  }, [client]);

  const run = async () => {
    setBusy(true);
    const done: RowResult[] = [];
    for (const id of targets) {
      try {
        const resource = await client.readResource<Resource>(resourceType as Resource['resourceType'], id);
        await client.executeBot(botId, resource, 'application/fhir+json');
        done.push({ id, ok: true });
      } catch (err) {
        done.push({ id, ok: false, message: outcomeText(err) });
      }
    }
    setResults(done);
    setBusy(false);
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Bulk</DialogTitle>
      <DialogContent>
        {results ? (
          <RowResultsList resourceType={resourceType} results={results} verb="ran" />
        ) : (
          <>
            <DialogContentText sx={{ mb: 2 }}>
              {`Run a bot on ${targets.length} selected ${resourceType} resource${targets.length === 1 ? '' : 's'}.`}
            </DialogContentText>
            {bots === undefined ? (
              <LinearProgress aria-label="Loading bots" />
            ) : bots.length === 0 && !error ? (
              <Alert severity="info">No bots in this project.</Alert>
            ) : (
              <TextField
                select
                fullWidth
                size="small"
                label="Bot"
                value={botId}
                onChange={(e) => setBotId(e.target.value)}
              >
                {bots.map((bot) => (
                  <MenuItem key={bot.id} value={bot.id}>
                    {bot.name ?? bot.id}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </>
        )}
        <BulkActionStatus busy={busy} busyLabel="Running" error={error} />
      </DialogContent>
      <BulkActionButtons
        busy={busy}
        done={results !== undefined}
        actionLabel="Run"
        actionDisabled={!botId || targets.length === 0}
        onAction={() => void run()}
        onClose={onClose}
      />
    </Dialog>
  );
}
