// A text input (or growing textarea) with its label and helper text, outlined as MUI's TextField draws
// it (PlainField), without TextField: TextField always bundles Select and with it Menu, Popover and
// Modal, and its outlined input alone is ~7 KB on the wire, for what the browser's own input does.
import { useId, type ChangeEvent, type HTMLAttributes, type KeyboardEvent, type Ref } from 'react';
import { PlainFieldFrame, PlainInput, PlainTextarea } from './PlainField';

export interface PlainTextFieldProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly error?: boolean;
  /** Shown under the input and given to it as its description. */
  readonly helperText?: string;
  readonly required?: boolean;
  readonly fullWidth?: boolean;
  readonly autoComplete?: string;
  readonly placeholder?: string;
  readonly inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  readonly autoFocus?: boolean;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** A textarea that grows from `minRows` to `maxRows` lines instead of a one-line input. */
  readonly multiline?: boolean;
  readonly minRows?: number;
  readonly maxRows?: number;
  readonly readOnly?: boolean;
  readonly inputRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  readonly onKeyDown?: (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** 'alert' when the helper text is a problem that must be announced as it appears. */
  readonly helperRole?: 'alert';
}

export function PlainTextField({
  label,
  value,
  onChange,
  id,
  name,
  type,
  error = false,
  helperText,
  required,
  fullWidth,
  autoComplete,
  placeholder,
  inputMode,
  autoFocus,
  maxLength,
  pattern,
  multiline,
  minRows,
  maxRows,
  readOnly,
  inputRef,
  onKeyDown,
  helperRole,
}: PlainTextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  const shared = {
    id: inputId,
    name,
    value,
    onChange,
    autoComplete,
    placeholder,
    autoFocus,
    maxLength,
    readOnly,
    required,
    onKeyDown,
    'aria-invalid': error || undefined,
    'aria-describedby': helperId,
  };
  return (
    <PlainFieldFrame
      inputId={inputId}
      label={label}
      required={required}
      error={error}
      fullWidth={fullWidth}
      helperId={helperId}
      helperText={helperText}
      helperRole={helperRole}
    >
      {multiline ? (
        <PlainTextarea
          {...shared}
          ref={inputRef as Ref<HTMLTextAreaElement> | undefined}
          minLines={minRows}
          maxLines={maxRows}
        />
      ) : (
        <PlainInput
          {...shared}
          ref={inputRef as Ref<HTMLInputElement> | undefined}
          type={type}
          inputMode={inputMode}
          pattern={pattern}
        />
      )}
    </PlainFieldFrame>
  );
}
