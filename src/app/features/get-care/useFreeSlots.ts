// The free times of the shown month (SPEC §2 Appointment request screen, §7, §9), from the Schedule's
// availability: Schedule/{id}/$find through the platform client, for the Schedule's service. Each
// free time is a proposed Slot without an id; its start is its key (one Schedule has one free time per
// start). `reload` asks again, e.g. after a time was taken by someone else.
import type { Slot } from '@medplum/fhirtypes';
import { useCallback, useEffect, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import { SLOT_COUNT, slotWindow, type SlotTime } from './slotWindow';

export interface FreeSlot extends SlotTime {
  /** The proposed Slot as $find answered it, to send to $book unchanged. */
  readonly proposal: Slot;
}

export interface FreeSlots {
  slots: FreeSlot[] | undefined;
  loading: boolean;
  error: Error | undefined;
  reload: () => void;
}

export function useFreeSlots(
  scheduleId: string | undefined,
  serviceReference: string | undefined,
  month: Date,
): FreeSlots {
  const client = useBloomClient();
  const [state, setState] = useState<{ key: string; slots?: FreeSlot[]; error?: Error }>({ key: '' });
  const [attempt, setAttempt] = useState(0);
  const { start, end } = slotWindow(month);
  const key = `${scheduleId ?? ''} ${serviceReference ?? ''} ${start} ${attempt}`;

  useEffect(() => {
    if (!scheduleId) return;
    const abort = new AbortController();
    client
      .findScheduleSlots(
        scheduleId,
        {
          start,
          end,
          ...(serviceReference ? { 'service-type-reference': serviceReference } : {}),
          _count: SLOT_COUNT,
        },
        { signal: abort.signal },
      )
      .then(
        (bundle) => {
          const slots = (bundle.entry ?? []).flatMap(({ resource }) =>
            resource?.start
              ? [{ id: resource.start, start: resource.start, end: resource.end, proposal: resource }]
              : [],
          );
          setState({ key, slots });
        },
        (error: unknown) => {
          if (!abort.signal.aborted)
            setState({ key, error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    return () => abort.abort();
  }, [client, scheduleId, serviceReference, start, end, key]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const current = state.key === key;
  return {
    slots: current ? state.slots : undefined,
    loading: !!scheduleId && !current,
    error: current ? state.error : undefined,
    reload,
  };
}
