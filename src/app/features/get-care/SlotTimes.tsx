// The free times of the chosen day (SPEC §2: "after a day, the user picks a time"), shown in the
// viewer's local time; one can be chosen at a time.
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { SlotTime } from './slotWindow';

export function formatSlotTime(start: string): string {
  return new Date(start).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
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
  const dayText = day.toLocaleDateString(undefined, { weekday: 'long', month: 'long', day: 'numeric' });
  return (
    <>
      <Typography id="slot-times-heading" variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
        Times on {dayText}
      </Typography>
      <ToggleButtonGroup
        exclusive
        value={selectedId ?? null}
        onChange={(_event, id: string | null) => {
          const slot = slots.find((candidate) => candidate.id === id);
          if (slot) onSelect(slot);
        }}
        aria-labelledby="slot-times-heading"
        color="primary"
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          '& .MuiToggleButton-root': { border: 1, borderRadius: 1 },
        }}
      >
        {slots.map((slot) => (
          <ToggleButton key={slot.id} value={slot.id} sx={{ minWidth: 96 }}>
            {formatSlotTime(slot.start)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </>
  );
}
