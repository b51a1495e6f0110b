// The Edit tab of the generic resource page: the resource's JSON in a labelled text box, saved with a
// PUT that names the version it was edited from (If-Match), so a change made meanwhile is refused
// rather than overwritten. Problems in the text are shown before sending; the server's own refusals
// (validation, access policy) are shown as it words them (SPEC §8).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Resource } from '@medplum/fhirtypes';
import { useState } from 'react';
import { operationOutcomeToString } from '../../../fhir/outcomes';
import { errorOutcome } from '../../api/errorOutcome';
import { useBloomClient } from '../../session/BloomClientContext';
import { editedResource } from './editedResource';

export function ResourceEdit({
  resource,
  onSaved,
}: {
  resource: Resource;
  onSaved: (saved: Resource) => void;
}) {
  const client = useBloomClient();
  const [text, setText] = useState(() => JSON.stringify(resource, null, 2));
  const [problem, setProblem] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  async function save(): Promise<void> {
    setSaved(false);
    const edited = editedResource(text, resource);
    if (!edited.ok) {
      setProblem(edited.problem);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const versionId = resource.meta?.versionId;
      const result = await client.updateResource(
        edited.resource,
        versionId ? { headers: { 'If-Match': `W/"${versionId}"` } } : undefined,
      );
      setText(JSON.stringify(result, null, 2));
      setSaved(true);
      onSaved(result);
    } catch (error) {
      setProblem(operationOutcomeToString(errorOutcome(error)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      sx={{ mt: 2 }}
    >
      <TextField
        label="Resource JSON"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setSaved(false);
        }}
        error={problem !== undefined}
        multiline
        minRows={12}
        maxRows={30}
        fullWidth
        slotProps={{
          htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: '0.85rem' } },
        }}
      />
      <Box role="status" aria-live="polite" sx={{ mt: 1 }}>
        {saved && <Alert severity="success">Saved.</Alert>}
      </Box>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      )}
      <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1 }}>
        Save
      </Button>
    </Box>
  );
}
