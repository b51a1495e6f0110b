// The error state of a form that posts to the server: per-field texts from the outcome's issue
// expressions (SPEC §5) and the rest as one message (SPEC §8), plus a busy flag while a request runs.
import { useCallback, useState } from 'react';
import { errorOutcome } from './errorOutcome';
import { splitOutcomeByField } from './outcomeFieldErrors';

export interface OutcomeForm<Field extends string> {
  readonly fieldErrors: Partial<Record<Field, string>>;
  readonly message: string | undefined;
  readonly submitting: boolean;
  setFieldErrors(errors: Partial<Record<Field, string>>): void;
  /** Runs a request, clearing old errors first and keeping the new ones when it fails. */
  run(action: () => Promise<void>): Promise<void>;
}

export function useOutcomeForm<Field extends string>(fields: readonly Field[]): OutcomeForm<Field> {
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const run = useCallback(
    async (action: () => Promise<void>) => {
      setFieldErrors({});
      setMessage(undefined);
      setSubmitting(true);
      try {
        await action();
      } catch (err) {
        const split = splitOutcomeByField(errorOutcome(err), fields);
        setFieldErrors(split.fieldErrors);
        setMessage(split.message);
      } finally {
        setSubmitting(false);
      }
    },
    // The field list is a constant of the calling form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  return { fieldErrors, message, submitting, setFieldErrors, run };
}
