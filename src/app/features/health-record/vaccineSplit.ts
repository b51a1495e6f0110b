// SPEC §4 Lists: vaccines are upcoming when their occurrence is later than now, past otherwise
// (including those with no date).
export function splitVaccines<V extends { readonly occurrenceDateTime?: string | null }>(
  vaccines: readonly V[],
  now: Date,
): { upcoming: V[]; past: V[] } {
  const upcoming: V[] = [];
  const past: V[] = [];
  for (const vaccine of vaccines) {
    const time = vaccine.occurrenceDateTime ? Date.parse(vaccine.occurrenceDateTime) : NaN;
    (time > now.getTime() ? upcoming : past).push(vaccine);
  }
  return { upcoming, past };
}
