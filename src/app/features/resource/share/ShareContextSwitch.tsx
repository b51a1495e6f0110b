// The "Share context" switch on the resource pages, with a small status line for the
// connection; problems show there and never break the page. Only clinicians see it.
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { SharingStatus } from '../../../session/share/contextSharing';
import { useShareContext } from '../../../session/share/ShareContextProvider';

export function statusText(status: SharingStatus | undefined): string {
  if (!status) return '';
  const state =
    status.connection === 'connected'
      ? 'Connected'
      : status.connection === 'connecting'
        ? 'Connecting…'
        : 'Connection lost, retrying…';
  return status.problem ? `${state} (${status.problem})` : state;
}

export function ShareContextSwitch() {
  const { available, enabled, setEnabled, status, settingProblem } = useShareContext();
  if (!available) return null;
  const text = [enabled ? statusText(status) : '', settingProblem ?? ''].filter(Boolean).join(' · ');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: { xs: 'flex-start', sm: 'flex-end' } }}>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
        label="Share context"
      />
      <Typography variant="caption" color="text.secondary" role="status" aria-live="polite">
        {text}
      </Typography>
    </Box>
  );
}
