// One counting session: she starts, taps once for each movement, and the count is saved when she
// reaches ten, when she stops, or when two hours pass. A low count tells her, calmly and at once, to
// call her care team now. A failed save keeps the count on screen with a way to try again.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { CallClinic, EMERGENCY_NUMBER, Phone, type ClinicContact } from '../../components/ClinicContact';
import { useT } from '../../i18n/LocaleProvider';
import { useBloomClient } from '../../session/BloomClientContext';
import {
  countSummary,
  isReduced,
  KICK_COUNT_GOAL,
  KICK_COUNT_WINDOW_MS,
  kickCountObservation,
  minutesBetween,
} from './kickCount';
import { kickCountStrings } from './strings';

type Session =
  | { state: 'idle' }
  | { state: 'counting'; start: Date; movements: number }
  | { state: 'saving' | 'failed' | 'saved'; start: Date; end: Date; movements: number; error?: string };

const TICK_MS = 15_000;
const systemClock = () => new Date();

export interface KickCounterProps {
  patient: string;
  clinic: ClinicContact;
  /** The clock (tests give their own). */
  now?: () => Date;
}

export function KickCounter({ patient, clinic, now = systemClock }: KickCounterProps) {
  const client = useBloomClient();
  const t = useT();
  const [session, setSession] = useState<Session>({ state: 'idle' });
  /** When the minutes on screen were last read from the clock. */
  const [shownAt, setShownAt] = useState<Date>(now);

  async function save(start: Date, end: Date, movements: number) {
    setSession({ state: 'saving', start, end, movements });
    try {
      await client.createResource(kickCountObservation(patient, movements, start, end));
      setSession({ state: 'saved', start, end, movements });
    } catch (err) {
      const error = err instanceof Error ? err.message : t(kickCountStrings.saveFailed);
      setSession({ state: 'failed', start, end, movements, error });
    }
  }

  // While counting: the minutes shown stay current, and two hours end the count.
  const counting = session.state === 'counting' ? session : undefined;
  useEffect(() => {
    if (!counting) return undefined;
    const timer = setInterval(() => {
      const at = now();
      if (at.getTime() - counting.start.getTime() >= KICK_COUNT_WINDOW_MS) {
        void save(counting.start, at, counting.movements);
      } else {
        setShownAt(at);
      }
    }, TICK_MS);
    return () => clearInterval(timer);
    // save is stable in effect: it reads only its arguments and the client.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [counting?.start, counting?.movements, now]);

  function movement() {
    if (!counting) return;
    const movements = counting.movements + 1;
    if (movements >= KICK_COUNT_GOAL) void save(counting.start, now(), movements);
    else setSession({ ...counting, movements });
    setShownAt(now());
  }

  if (session.state === 'idle') {
    return (
      <Button
        variant="contained"
        size="large"
        onClick={() => setSession({ state: 'counting', start: now(), movements: 0 })}
      >
        {t(kickCountStrings.start)}
      </Button>
    );
  }

  if (session.state === 'counting') {
    const minutes = Math.max(0, Math.floor((shownAt.getTime() - session.start.getTime()) / 60_000));
    return (
      <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
        <Typography role="status" aria-live="polite" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
          {t(kickCountStrings.progress, { movements: session.movements, goal: KICK_COUNT_GOAL, minutes })}
        </Typography>
        <Button variant="contained" size="large" onClick={movement} sx={{ minHeight: 72, minWidth: 240 }}>
          {t(kickCountStrings.movement)}
        </Button>
        <Button variant="outlined" onClick={() => void save(session.start, now(), session.movements)}>
          {t(kickCountStrings.stop)}
        </Button>
      </Box>
    );
  }

  const summary = countSummary(t, session.movements, minutesBetween(session.start, session.end));
  const reduced = isReduced(session.movements, session.start, session.end);
  return (
    <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
      {session.state === 'saving' && <Typography role="status">{t(kickCountStrings.saving)}</Typography>}
      {session.state === 'failed' && (
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" onClick={() => void save(session.start, session.end, session.movements)}>
              {t(kickCountStrings.tryAgain)}
            </Button>
          }
        >
          {t(kickCountStrings.notSaved, { summary })} {session.error}
        </Alert>
      )}
      {session.state === 'saved' && (
        <Typography role="status">
          {t(kickCountStrings.saved, { summary })}
          {!reduced && ` ${t(kickCountStrings.movingWell)}`}
        </Typography>
      )}
      {reduced && (
        <Alert severity="warning" role="alert">
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {session.movements < KICK_COUNT_GOAL &&
            session.end.getTime() - session.start.getTime() < KICK_COUNT_WINDOW_MS
              ? t(kickCountStrings.stoppedEarly, { goal: KICK_COUNT_GOAL })
              : t(kickCountStrings.fewer, { goal: KICK_COUNT_GOAL })}
          </Typography>
          <Typography>
            {t(kickCountStrings.callNow)} <CallClinic clinic={clinic} /> {t(kickCountStrings.now)}{' '}
            {t(kickCountStrings.cannotReach)} <Phone number={EMERGENCY_NUMBER} />.
          </Typography>
        </Alert>
      )}
      {session.state !== 'saving' && session.state !== 'failed' && (
        <Button variant="outlined" onClick={() => setSession({ state: 'idle' })}>
          {t(kickCountStrings.again)}
        </Button>
      )}
    </Box>
  );
}
