// The free times of the chosen day (SPEC §2: "after a day, the user picks a time"), shown in the
// viewer's local time; one can be chosen at a time (toggle buttons: aria-pressed marks the chosen one;
// MUI's ToggleButtonGroup cost ~1.5 KB on the wire for the same).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import type { SlotTime } from './slotWindow';
import { getCareStrings as s } from './strings';

export function formatSlotTime(start: string, locale: string): string {
  return new Date(start).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
}

export function SlotTimes<S extends SlotTime>({
  day,
  slots,
  selectedId,
  onSelect,
}: {
  day: Date;
  slots: readonly S[];
  selectedId: string | undefined;
  onSelect: (slot: S) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const dayText = day.toLocaleDateString(locale, { weekday: 'long', month: 'long', day: 'numeric' });
  return (
    <>
      <Typography id="slot-times-heading" variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
        {t(s.timesOn, { day: dayText })}
      </Typography>
      <Box
        role="group"
        aria-labelledby="slot-times-heading"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
      >
        {slots.map((slot) => {
          const chosen = slot.id === selectedId;
          return (
            <Button
              key={slot.id}
              variant={chosen ? 'contained' : 'outlined'}
              aria-pressed={chosen}
              onClick={() => onSelect(slot)}
              sx={{ minWidth: 96 }}
            >
              {formatSlotTime(slot.start, locale)}
            </Button>
          );
        })}
      </Box>
    </>
  );
}
