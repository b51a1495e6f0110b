// Critical interpretation codes (SPEC §2 Diagnostic report view, §9): AA, LL, HH, A are highlighted.
import type { ConceptLike } from './observationValues';

export const CRITICAL_INTERPRETATION_CODES: readonly string[] = ['AA', 'LL', 'HH', 'A'];

export function isCritical(interpretations: ReadonlyArray<ConceptLike | null> | null | undefined): boolean {
  return (interpretations ?? []).some((concept) =>
    (concept?.coding ?? []).some(
      (coding) => !!coding?.code && CRITICAL_INTERPRETATION_CODES.includes(coding.code),
    ),
  );
}
