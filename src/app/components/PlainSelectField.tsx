// A choice from a short fixed list, drawn as an outlined field like PlainTextField: the browser's own
// <select> inside MUI's outlined input. MUI's TextField `select` bundles Select, Menu, Popover and
// Modal (~20 KB gzip) for a pop-up list the native control already gives, with the platform's keyboard
// and screen-reader behaviour.
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { forwardRef, useId, type ChangeEvent } from 'react';

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface PlainSelectFieldProps {
  readonly label: string;
  readonly value: string;
  readonly options: readonly SelectOption[];
  readonly onChange: (value: string) => void;
  readonly id?: string;
  readonly name?: string;
  readonly error?: boolean;
  /** Shown under the field and given to it as its description. */
  readonly helperText?: string;
  readonly fullWidth?: boolean;
  readonly autoComplete?: string;
}

/** The <select> OutlinedInput draws in place of its <input>; the options travel in its input props. */
const NativeSelect = forwardRef<HTMLSelectElement, InputBaseComponentProps>(function NativeSelect(
  { options, ...props },
  ref,
) {
  return (
    <select ref={ref} {...props}>
      {(options as readonly SelectOption[]).map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
});

export function PlainSelectField({
  label,
  value,
  options,
  onChange,
  id,
  name,
  error = false,
  helperText,
  fullWidth,
  autoComplete,
}: PlainSelectFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  return (
    // The label always sits on the outline: a select always shows its chosen option, even an empty one.
    <FormControl variant="outlined" error={error} fullWidth={fullWidth}>
      <InputLabel htmlFor={inputId} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        id={inputId}
        name={name}
        label={label}
        notched
        value={value}
        autoComplete={autoComplete}
        onChange={(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
          onChange(event.target.value)
        }
        inputComponent={NativeSelect}
        inputProps={{ options, 'aria-describedby': helperId }}
        sx={{ '& select': { cursor: 'pointer' } }}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
