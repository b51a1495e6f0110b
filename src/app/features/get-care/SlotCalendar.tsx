// The month calendar of SPEC §2 "Appointment request screen": weekday headers SUN to SAT, Previous
// month and Next month, and a day enabled only when a free slot starts on it (in local time). MUI's
// DateCalendar gives the keyboard grid (arrows, Home/End, Page Up/Down) and the month buttons; each
// day's accessible name says how many times are free.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { localDayKey } from './slotWindow';

export interface SlotCalendarProps {
  /** Local midnight of the first of the shown month. */
  readonly month: Date;
  /** Local midnight of the first of the earliest month to show (this month: earlier ones hold no free slot). */
  readonly firstMonth: Date;
  /** Free-slot counts by local day (YYYY-MM-DD). */
  readonly freeTimesByDay: ReadonlyMap<string, number>;
  /** The chosen day (local midnight), if any. */
  readonly day: Date | null;
  readonly loading: boolean;
  readonly onMonthChange: (month: Date) => void;
  readonly onDayChange: (day: Date) => void;
}

function dayLabel(day: Dayjs, freeTimes: number): string {
  const date = day.toDate().toLocaleDateString(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  if (freeTimes === 0) return `${date}, no free times`;
  return `${date}, ${freeTimes} free ${freeTimes === 1 ? 'time' : 'times'}`;
}

export function SlotCalendar({
  month,
  firstMonth,
  freeTimesByDay,
  day,
  loading,
  onMonthChange,
  onDayChange,
}: SlotCalendarProps) {
  const freeTimes = (date: Dayjs) => freeTimesByDay.get(localDayKey(date.toDate())) ?? 0;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DateCalendar
        value={day ? dayjs(day) : null}
        referenceDate={dayjs(month)}
        views={['day']}
        minDate={dayjs(firstMonth)}
        loading={loading}
        renderLoading={() => (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
            <CircularProgress aria-label="Loading free times" />
          </Box>
        )}
        shouldDisableDate={(date) => freeTimes(date) === 0}
        dayOfWeekFormatter={(date) => date.format('ddd').toUpperCase()}
        onMonthChange={(date) => onMonthChange(date.startOf('month').toDate())}
        onChange={(date: Dayjs | null) => {
          if (date) onDayChange(date.startOf('day').toDate());
        }}
        slotProps={{
          day: (ownerState) => ({ 'aria-label': dayLabel(ownerState.day, freeTimes(ownerState.day)) }),
        }}
        sx={{ width: '100%', maxWidth: 360, mx: 0 }}
      />
    </LocalizationProvider>
  );
}
