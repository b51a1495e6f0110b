// A choice from a short fixed list, drawn as an outlined field like PlainTextField: the browser's own
// <select>. MUI's TextField `select` bundles Select, Menu, Popover and Modal (~20 KB gzip) for a pop-up
// list the native control already gives, with the platform's keyboard and screen-reader behaviour.
import { useId } from 'react';
import { PlainFieldFrame, PlainSelect } from './PlainField';

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
    <PlainFieldFrame
      inputId={inputId}
      label={label}
      error={error}
      fullWidth={fullWidth}
      helperId={helperId}
      helperText={helperText}
    >
      <PlainSelect
        id={inputId}
        name={name}
        value={value}
        autoComplete={autoComplete}
        aria-invalid={error || undefined}
        aria-describedby={helperId}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </PlainSelect>
    </PlainFieldFrame>
  );
}
