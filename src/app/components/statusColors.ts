// Status badge colours of SPEC §4 "Status badge colours": each FHIR status maps to one of five colours.
export type StatusColor = 'blue' | 'yellow' | 'green' | 'red' | 'gray';

const STATUS_COLORS: Readonly<Record<StatusColor, readonly string[]>> = {
  blue: [
    'draft',
    'active',
    'registered',
    'preliminary',
    'requested',
    'received',
    'accepted',
    'ready',
    'in-progress',
    'proposed',
    'pending',
    'booked',
    'arrived',
    'checked-in',
  ],
  yellow: ['on-hold', 'amended', 'corrected'],
  green: ['completed', 'final', 'fulfilled', 'connected'],
  red: [
    'revoked',
    'entered-in-error',
    'cancelled',
    'rejected',
    'failed',
    'noshow',
    'not-done',
    'disconnected',
    'urgent',
    'asap',
    'stat',
  ],
  gray: ['unknown', 'retired', 'waitlist', 'routine'],
};

const BY_STATUS = new Map<string, StatusColor>(
  (Object.entries(STATUS_COLORS) as [StatusColor, readonly string[]][]).flatMap(([color, statuses]) =>
    statuses.map((status) => [status, color] as const),
  ),
);

/** The badge colour of a status; statuses SPEC §4 does not list are gray. */
export function statusColor(status: string): StatusColor {
  return BY_STATUS.get(status) ?? 'gray';
}
