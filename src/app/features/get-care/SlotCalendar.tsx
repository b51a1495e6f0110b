// The month calendar of SPEC §2 "Appointment request screen": weekday headers SUN to SAT, Previous
// month and Next month, and a day enabled only when a free slot starts on it (in local time). A small
// grid of our own rather than a date-picker library, to keep the screen within its bytes budget: one
// tab stop, arrow keys (and Home/End, Page Up/Down for the month) move among the days that can be
// chosen, Enter or Space chooses; each day's accessible name says how many times are free.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocale, useT, type Translate } from '../../i18n/LocaleProvider';
import { monthWeeks, moveFocus, weekdays } from './monthGrid';
import { getCareStrings as s } from './strings';
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

function dayLabel(day: Date, freeTimes: number, locale: string, t: Translate): string {
  const date = day.toLocaleDateString(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  return t(s.dayFree, { date, count: freeTimes });
}

const addMonths = (month: Date, count: number) => new Date(month.getFullYear(), month.getMonth() + count, 1);

const CELL = 40;

export function SlotCalendar({
  month,
  firstMonth,
  freeTimesByDay,
  day,
  loading,
  onMonthChange,
  onDayChange,
}: SlotCalendarProps) {
  const labelId = useId();
  const t = useT();
  const locale = useLocale();
  const gridRef = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const [moved, setMoved] = useState(0);
  const freeTimes = (date: Date) => freeTimesByDay.get(localDayKey(date)) ?? 0;
  const weeks = monthWeeks(month);
  const enabled = weeks.flat().filter((date): date is Date => date !== null && freeTimes(date) > 0);
  const enabledKeys = new Set(enabled.map(localDayKey));
  const chosenKey = day ? localDayKey(day) : null;
  // The one tab stop: the focused day, else the chosen one, else the first that can be chosen.
  const tabStop = [focused, chosenKey, enabled[0] ? localDayKey(enabled[0]) : null].find(
    (key) => key !== null && enabledKeys.has(key),
  );
  const canGoBack = month.getTime() > firstMonth.getTime();
  const today = localDayKey(new Date());

  // Focus follows the keyboard onto the day it moved to (only after a key press, never on render).
  useEffect(() => {
    if (moved === 0 || !focused) return;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-day="${focused}"]`)?.focus();
  }, [moved, focused]);

  const changeMonth = (count: number) => {
    setFocused(null);
    onMonthChange(addMonths(month, count));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, from: Date) => {
    if (event.key === 'PageUp' || event.key === 'PageDown') {
      event.preventDefault();
      if (event.key === 'PageDown') changeMonth(1);
      else if (canGoBack) changeMonth(-1);
      return;
    }
    const target = moveFocus(from, event.key, enabled);
    if (event.key in { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, ArrowDown: 1, Home: 1, End: 1 }) {
      event.preventDefault();
    }
    if (!target) return;
    setFocused(localDayKey(target));
    setMoved((count) => count + 1);
  };

  return (
    <Box sx={{ width: '100%', maxWidth: 7 * CELL + 32, px: 2, py: 1, boxSizing: 'border-box' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography id={labelId} aria-live="polite" sx={{ flex: 1, fontWeight: 500, pl: 1 }}>
          {month.toLocaleDateString(locale, { month: 'long', year: 'numeric' })}
        </Typography>
        <IconButton aria-label={t(s.previousMonth)} disabled={!canGoBack} onClick={() => changeMonth(-1)}>
          <SvgIcon>
            <path d="M15.41 16.59 10.83 12l4.58-4.59L14 6l-6 6 6 6z" />
          </SvgIcon>
        </IconButton>
        <IconButton aria-label={t(s.nextMonth)} onClick={() => changeMonth(1)}>
          <SvgIcon>
            <path d="M8.59 16.59 13.17 12 8.59 7.41 10 6l6 6-6 6z" />
          </SvgIcon>
        </IconButton>
      </Box>
      <Box role="grid" aria-labelledby={labelId} ref={gridRef}>
        <Box role="row" sx={{ display: 'flex' }}>
          {weekdays(locale).map(({ short, long }) => (
            <Typography
              key={short}
              component="span"
              role="columnheader"
              aria-label={long}
              variant="caption"
              sx={{ width: CELL, textAlign: 'center', color: 'text.secondary' }}
            >
              {short}
            </Typography>
          ))}
        </Box>
        {loading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
            <CircularProgress aria-label={t(s.loadingTimes)} />
          </Box>
        ) : (
          weeks.map((week) => (
            <Box role="row" key={week.find(Boolean)?.getDate()} sx={{ display: 'flex' }}>
              {week.map((date, index) => {
                if (!date) return <Box role="gridcell" key={`empty-${index}`} sx={{ width: CELL }} />;
                const key = localDayKey(date);
                const count = freeTimes(date);
                const selected = key === chosenKey;
                return (
                  <Box
                    component="button"
                    type="button"
                    role="gridcell"
                    key={key}
                    data-day={key}
                    aria-label={dayLabel(date, count, locale, t)}
                    aria-selected={selected}
                    disabled={count === 0}
                    tabIndex={key === tabStop ? 0 : -1}
                    onClick={() => {
                      setFocused(key);
                      onDayChange(date);
                    }}
                    onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => onKeyDown(event, date)}
                    sx={(theme) => ({
                      width: CELL - 4,
                      height: CELL - 4,
                      m: '2px',
                      p: 0,
                      borderRadius: '50%',
                      border:
                        key === today ? `1px solid ${theme.palette.text.secondary}` : '1px solid transparent',
                      font: 'inherit',
                      fontSize: theme.typography.body2.fontSize,
                      cursor: 'pointer',
                      color: selected ? theme.palette.primary.contrastText : theme.palette.text.primary,
                      bgcolor: selected ? 'primary.main' : 'transparent',
                      '&:hover:not(:disabled)': { bgcolor: selected ? 'primary.dark' : 'action.hover' },
                      '&:focus-visible': {
                        outline: `2px solid ${theme.palette.primary.main}`,
                        outlineOffset: 1,
                      },
                      '&:disabled': { color: 'text.disabled', cursor: 'default' },
                    })}
                  >
                    {date.getDate()}
                  </Box>
                );
              })}
            </Box>
          ))
        )}
      </Box>
    </Box>
  );
}
