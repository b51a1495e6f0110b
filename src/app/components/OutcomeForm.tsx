// The scaffolding every form that posts to the server repeats (SPEC §5, §8): a labelled form without
// the browser's own validation bubbles; on submit, the local checks (their texts under the fields)
// and only then the request; the red 'Error' alert on top for issues no field shows; the fields; a
// submit button that shows a spinner while the request runs.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode } from 'react';
import type { OutcomeForm as OutcomeFormState } from '../api/useOutcomeForm';
import { ErrorAlert } from './ErrorAlert';

export interface OutcomeFormProps<Field extends string> {
  /** The form's accessible name (role form). */
  readonly label: string;
  /** The error state of useOutcomeForm: its message goes to the alert, `submitting` to the button. */
  readonly form: OutcomeFormState<Field>;
  /** Server fields with no input of their own here: their issues join the alert's message. */
  readonly alertFields?: readonly NoInfer<Field>[];
  /** The submit button's text; null for a form that brings its own buttons. */
  readonly submitLabel: string | null;
  /** Checks before anything is sent: the problems by field (SPEC §5), empty when all is well. */
  readonly validate?: () => Partial<Record<NoInfer<Field>, string>>;
  /** The request; what it throws becomes the form's field errors and message (useOutcomeForm.run). */
  readonly action: () => Promise<void>;
  readonly spacing?: number;
  /** Shown after the submit button (links, secondary actions). */
  readonly footer?: ReactNode;
  readonly children: ReactNode;
}

/** The alert's text: the form's message and the issues of the fields without an input, joined with '; '. */
export function alertMessage<Field extends string>(
  form: Pick<OutcomeFormState<Field>, 'message' | 'fieldErrors'>,
  alertFields: readonly NoInfer<Field>[] = [],
): string | undefined {
  const texts = [form.message, ...alertFields.map((field) => form.fieldErrors[field])];
  return texts.filter((text): text is string => !!text).join('; ') || undefined;
}

export function OutcomeForm<Field extends string>({
  label,
  form,
  alertFields,
  submitLabel,
  validate,
  action,
  spacing = 2.5,
  footer,
  children,
}: OutcomeFormProps<Field>) {
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = validate?.() ?? {};
    if (Object.keys(problems).length > 0) {
      form.setFieldErrors(problems);
      return;
    }
    void form.run(action);
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label={label}>
      <Stack spacing={spacing}>
        <ErrorAlert message={alertMessage(form, alertFields)} />
        {children}
        {submitLabel !== null && (
          <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
            {submitLabel}
          </Button>
        )}
        {footer}
      </Stack>
    </form>
  );
}

/** The error props of a TextField for one field's issue text: red, with the text under it (SPEC §5). */
export function fieldErrorProps(text: string | undefined): {
  error: boolean;
  helperText: string | undefined;
} {
  return { error: text !== undefined, helperText: text };
}
