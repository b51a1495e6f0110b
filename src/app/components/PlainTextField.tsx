// An outlined text input (or growing textarea) with its label and helper text, as MUI's TextField draws it, without
// TextField's select mode: TextField always bundles Select and with it Menu, Popover and Modal
// (~20 KB gzip), which a screen with only text inputs never uses.
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, type ChangeEvent, type HTMLAttributes, type KeyboardEvent, type Ref } from 'react';

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
  return (
    <FormControl variant="outlined" error={error} required={required} fullWidth={fullWidth}>
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        id={inputId}
        name={name}
        type={type}
        label={label}
        value={value}
        onChange={onChange}
        autoComplete={autoComplete}
        placeholder={placeholder}
        autoFocus={autoFocus}
        multiline={multiline}
        minRows={minRows}
        maxRows={maxRows}
        readOnly={readOnly}
        inputRef={inputRef}
        onKeyDown={onKeyDown}
        inputProps={{ inputMode, maxLength, pattern, 'aria-describedby': helperId }}
      />
      {helperText && (
        <FormHelperText id={helperId} role={helperRole}>
          {helperText}
        </FormHelperText>
      )}
    </FormControl>
  );
}
