// Her latest counts, newest first, as a list (the text everyone can read) and a bar chart of the
// minutes each took to reach ten, oldest on the left; a low count is marked in both.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState } from '../../components/ListStates';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { kickCountStrings } from './strings';
import { countSummary, isReduced, KICK_COUNT_WINDOW_MS, minutesBetween } from './kickCount';

export interface KickCountEntry {
  id: string;
  movements: number;
  start: string;
  end: string;
}

const CHART_HEIGHT = 120;
const WINDOW_MINUTES = KICK_COUNT_WINDOW_MS / 60_000;

function Chart({ entries }: { entries: readonly KickCountEntry[] }) {
  const t = useT();
  const locale = useLocale();
  const oldestFirst = [...entries].reverse();
  const minutes = oldestFirst.map((entry) => minutesBetween(entry.start, entry.end));
  const top = Math.max(...minutes, 30);
  return (
    <Box
      role="img"
      aria-label={t(kickCountStrings.chart, {
        minutes: minutes.map((value) => value.toLocaleString(locale)).join(', '),
      })}
      sx={{
        display: 'flex',
        alignItems: 'flex-end',
        gap: 0.75,
        height: CHART_HEIGHT,
        borderBottom: 1,
        borderColor: 'divider',
        mb: 2,
      }}
    >
      {oldestFirst.map((entry, index) => {
        const low = isReduced(entry.movements, entry.start, entry.end);
        return (
          <Box
            key={entry.id}
            data-testid="kick-count-bar"
            sx={{
              flex: '1 1 0',
              maxWidth: 28,
              height: `${Math.max(4, (Math.min(minutes[index], WINDOW_MINUTES) / top) * CHART_HEIGHT)}px`,
              bgcolor: low ? 'warning.main' : 'primary.main',
              borderRadius: '4px 4px 0 0',
            }}
          />
        );
      })}
    </Box>
  );
}

export function KickCountHistory({ entries }: { entries: readonly KickCountEntry[] }) {
  const t = useT();
  return (
    <Box component="section" aria-labelledby="kick-history-heading" sx={{ mt: 5 }}>
      <Typography id="kick-history-heading" variant="h2" sx={{ fontSize: '1.3rem', mb: 2 }}>
        {t(kickCountStrings.history)}
      </Typography>
      {entries.length === 0 ? (
        <EmptyState text={t(kickCountStrings.noCounts)} />
      ) : (
        <>
          <Chart entries={entries} />
          <Box
            component="ul"
            aria-label={t(kickCountStrings.history)}
            sx={{ p: 0, m: 0, listStyle: 'none', display: 'grid', gap: 1 }}
          >
            {entries.map((entry) => {
              const low = isReduced(entry.movements, entry.start, entry.end);
              return (
                <Box component="li" key={entry.id} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  <DateTimeDisplay value={entry.start} />
                  <span>· {countSummary(t, entry.movements, minutesBetween(entry.start, entry.end))}</span>
                  {low && (
                    <Typography component="span" sx={{ fontWeight: 600 }}>
                      · {t(kickCountStrings.low)}
                    </Typography>
                  )}
                </Box>
              );
            })}
          </Box>
        </>
      )}
    </Box>
  );
}
