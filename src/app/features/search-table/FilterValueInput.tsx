// The value input of a filter, by kind (./valueInputKind, SPEC §5): a reference as Type/id, a yes/no,
// a date, a date and time (sent as an ISO instant), a number with any step, a quantity with its
// comparator (only beside 'equals': other operations are comparators themselves), number and unit,
// otherwise text (a token takes 'code' or 'system|code').
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  formatQuantityValue,
  parseQuantityValue,
  QUANTITY_COMPARATORS,
  type ValueInputKind,
} from './valueInputKind';

export interface FilterValueInputProps {
  readonly kind: ValueInputKind;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly label?: string;
  readonly autoFocus?: boolean;
  /** A quantity's comparator select (SPEC §5): shown with 'equals' only, so 'not equals' stays 'ne'. */
  readonly showComparator?: boolean;
}

/** An ISO dateTime as the browser's datetime-local value (local time, minutes). */
function toLocalInput(value: string): string {
  const date = new Date(value);
  if (!value || Number.isNaN(date.getTime()) || !value.includes('T')) return value;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
}

export function FilterValueInput({
  kind,
  value,
  onChange,
  label = 'Value',
  autoFocus,
  showComparator = true,
}: FilterValueInputProps) {
  const common = { label, size: 'small' as const, autoFocus, fullWidth: true };
  switch (kind) {
    case 'boolean':
      return (
        <TextField {...common} select value={value} onChange={(event) => onChange(event.target.value)}>
          <MenuItem value="true">true</MenuItem>
          <MenuItem value="false">false</MenuItem>
        </TextField>
      );
    case 'date':
      return (
        <TextField
          {...common}
          type="date"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'datetime':
      return (
        <TextField
          {...common}
          type="datetime-local"
          value={toLocalInput(value)}
          onChange={(event) => onChange(fromLocalInput(event.target.value))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'number':
      return (
        <TextField
          {...common}
          type="number"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          slotProps={{ htmlInput: { step: 'any' } }}
        />
      );
    case 'quantity': {
      const parsed = parseQuantityValue(value);
      const quantity = showComparator ? parsed : { ...parsed, comparator: '' };
      const change = (part: Partial<typeof quantity>) =>
        onChange(formatQuantityValue({ ...quantity, ...part }));
      return (
        <Box sx={{ display: 'flex', gap: 1 }}>
          {showComparator && (
            <TextField
              select
              size="small"
              label="Comparator"
              value={quantity.comparator}
              onChange={(event) => change({ comparator: event.target.value })}
              sx={{ minWidth: 90 }}
            >
              {QUANTITY_COMPARATORS.map((entry) => (
                <MenuItem key={entry.symbol} value={entry.symbol}>
                  {entry.symbol || '\u00a0'}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            {...common}
            type="number"
            value={quantity.number}
            onChange={(event) => change({ number: event.target.value })}
            slotProps={{ htmlInput: { step: 'any' } }}
          />
          <TextField
            size="small"
            label="Unit"
            value={quantity.unit}
            onChange={(event) => change({ unit: event.target.value })}
            sx={{ minWidth: 90 }}
          />
        </Box>
      );
    }
    case 'reference':
      return (
        <TextField
          {...common}
          value={value}
          placeholder="Patient/123"
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'text':
      return (
        <TextField
          {...common}
          value={value}
          placeholder="value, or system|code"
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
