// A FHIR status as a small pill in the colours of SPEC §4, in words a patient uses, in her language (statusWords.ts).
// Text and background pairs keep a contrast ratio above 4.5:1 (WCAG AA) so the status reads without
// relying on colour; the raw code stays in data-status for machines.
import Box from '@mui/material/Box';
import { useLocale } from '../i18n/LocaleProvider';
import type { StatusColor } from './statusColors';
import { patientStatus, type StatusKind } from './statusWords';

const PALETTE: Readonly<Record<StatusColor, { bg: string; fg: string }>> = {
  blue: { bg: '#e3efff', fg: '#0b4a9c' },
  yellow: { bg: '#fff4cc', fg: '#6b4e00' },
  green: { bg: '#e0f5e6', fg: '#1b5e2c' },
  red: { bg: '#fde6e6', fg: '#9b1c1c' },
  gray: { bg: '#eceff1', fg: '#37474f' },
};

export function StatusBadge({
  status,
  kind,
  upcoming,
}: {
  status: string;
  kind?: StatusKind;
  /** The thing lies ahead (an upcoming vaccine): not done yet is expected, not a failure. */
  upcoming?: boolean;
}) {
  // Subscribed to the language, so the words change with it.
  useLocale();
  const { text, color } = patientStatus(status, { kind, upcoming });
  const { bg, fg } = PALETTE[color];
  return (
    <Box
      component="span"
      data-color={color}
      data-status={status}
      sx={{
        display: 'inline-block',
        px: 1,
        py: 0.25,
        borderRadius: 8,
        fontSize: '0.8rem',
        fontWeight: 600,
        lineHeight: 1.5,
        whiteSpace: 'nowrap',
        bgcolor: bg,
        color: fg,
      }}
    >
      {text}
    </Box>
  );
}
