// What the care-team home shows per patient (the practitioner's home): name, gestational week
// from the due date (40 weeks after the last period's first day), due date, next appointment, unread
// messages (sent by the patient, not yet marked received) and the newest critical lab result (SPEC §2
// Diagnostic report view: AA, LL, HH, A are critical).
import type { CareTeamHomeQuery } from '../../../graphql';

type PatientItem = NonNullable<NonNullable<CareTeamHomeQuery['PatientList']>[number]>;

const DAY_MS = 24 * 60 * 60 * 1000;
const PREGNANCY_DAYS = 280;
export const CRITICAL_CODES = new Set(['AA', 'LL', 'HH', 'A']);

export interface PatientRow {
  readonly id: string;
  readonly name: string;
  /** Completed weeks of pregnancy today; undefined without a due date or outside the pregnancy. */
  readonly week: number | undefined;
  readonly dueDate: string | undefined;
  readonly nextAppointment: string | undefined;
  readonly unread: number;
  readonly critical: { readonly text: string; readonly date: string | undefined } | undefined;
}

export function gestationalWeek(dueDate: string, now: Date): number | undefined {
  const due = Date.parse(dueDate.length === 10 ? `${dueDate}T00:00:00Z` : dueDate);
  if (Number.isNaN(due)) return undefined;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const elapsed = PREGNANCY_DAYS - Math.round((due - today) / DAY_MS);
  if (elapsed < 0 || elapsed > PREGNANCY_DAYS + 21) return undefined;
  return Math.floor(elapsed / 7);
}

export function patientName(name: PatientItem['name'] | undefined): string {
  const first = name?.find((n) => n?.given?.length || n?.family);
  const parts = [...(first?.given ?? []), first?.family].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(' ') : 'Unnamed patient';
}

function criticalOf(results: PatientItem['results']): PatientRow['critical'] {
  const found = (results ?? []).find((result) =>
    result?.interpretation?.some((i) => i?.coding?.some((c) => c?.code && CRITICAL_CODES.has(c.code))),
  );
  if (!found) return undefined;
  const flag = found.interpretation?.find((i) => i?.text)?.text;
  const test = found.code?.text ?? 'Lab result';
  return { text: flag ? `${test}: ${flag}` : test, date: found.effectiveDateTime ?? undefined };
}

export function patientRows(data: CareTeamHomeQuery | undefined, now: Date): PatientRow[] {
  return (data?.PatientList ?? []).flatMap((patient): PatientRow[] => {
    if (!patient?.id) return [];
    const self = `Patient/${patient.id}`;
    const dueDate = patient.dueDate?.[0]?.valueDateTime ?? undefined;
    return [
      {
        id: patient.id,
        name: patientName(patient.name),
        week: dueDate ? gestationalWeek(dueDate, now) : undefined,
        dueDate,
        nextAppointment: patient.nextAppointment?.[0]?.start ?? undefined,
        unread: (patient.unread ?? []).filter((m) => m?.sender?.reference === self).length,
        critical: criticalOf(patient.results),
      },
    ];
  });
}
