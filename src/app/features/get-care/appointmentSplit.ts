// SPEC §4 Lists: an appointment is upcoming when it starts now or later, past otherwise (an
// appointment without a readable start counts as past). Upcoming soonest first; past latest first.

export interface TimedAppointment {
  readonly start?: string | null;
}

export function splitAppointments<A extends TimedAppointment>(
  appointments: readonly A[],
  now: Date,
): { upcoming: A[]; past: A[] } {
  const timed = appointments.map((appointment) => ({
    appointment,
    time: appointment.start ? Date.parse(appointment.start) : NaN,
  }));
  const upcoming = timed
    .filter(({ time }) => time >= now.getTime())
    .sort((a, b) => a.time - b.time)
    .map(({ appointment }) => appointment);
  const past = timed
    .filter(({ time }) => !(time >= now.getTime()))
    .sort((a, b) => undatedLast(a.time, b.time))
    .map(({ appointment }) => appointment);
  return { upcoming, past };
}

/** Latest first; appointments without a start after every dated one. */
function undatedLast(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  return b - a;
}
