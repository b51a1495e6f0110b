// One editable row of the Filters dialog: Field (the type's search parameters), Operation (by the
// parameter's type, ./operators) and Value (by kind, ./FilterValueInput). Used as the add row (Add)
// and as a row being edited (Save and Cancel); it can be saved only once field and operator are chosen.
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { Operator, type Filter } from '../../../fhir/search';
import { FilterValueInput } from './FilterValueInput';
import {
  choiceOfFilter,
  filterOfChoice,
  filterTarget,
  NOT_CONTAINS_CHOICE,
  operatorChoices,
} from './operators';
import { parameterElementTypes, type TableSchema } from './tableSchema';
import { normalizeFilter, valueInputKind } from './valueInputKind';

export interface FilterEditRowProps {
  readonly schema: TableSchema;
  readonly initial?: Filter;
  readonly saveLabel: 'Add' | 'Save';
  readonly onSave: (filter: Filter) => void;
  readonly onCancel?: () => void;
}

export function FilterEditRow({ schema, initial, saveLabel, onSave, onCancel }: FilterEditRowProps) {
  const target = initial ? filterTarget(initial) : undefined;
  const [code, setCode] = useState(target?.code ?? '');
  const param = schema.parameters.get(code);
  const initialChoice = initial && param ? choiceOfFilter(param.type, initial) : undefined;
  const [choiceId, setChoiceId] = useState(initialChoice?.id ?? '');
  const [value, setValue] = useState(() => {
    if (!initial || !param) return '';
    return initialChoice === NOT_CONTAINS_CHOICE ? (target?.value ?? '') : initial.value;
  });
  const choices = param ? operatorChoices(param.type) : [];
  const choice = choices.find((candidate) => candidate.id === choiceId);
  const codes = [...schema.parameters.keys()].sort();
  if (code && !param) codes.unshift(code);

  const save = () => {
    if (!param || !choice) return;
    onSave(normalizeFilter(param.type, filterOfChoice(code, choice, value.trim())));
    if (saveLabel === 'Add') {
      setCode('');
      setChoiceId('');
      setValue('');
    }
  };

  return (
    <TableRow>
      <TableCell sx={{ minWidth: 160 }}>
        <TextField
          select
          size="small"
          fullWidth
          label="Field"
          value={code}
          onChange={(event) => {
            const next = schema.parameters.get(event.target.value);
            setCode(event.target.value);
            if (!next || !operatorChoices(next.type).some((candidate) => candidate.id === choiceId))
              setChoiceId('');
            setValue('');
          }}
        >
          {codes.map((candidate) => (
            <MenuItem key={candidate} value={candidate}>
              {candidate}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell sx={{ minWidth: 150 }}>
        <TextField
          select
          size="small"
          fullWidth
          label="Operation"
          value={choice ? choiceId : ''}
          disabled={!param}
          onChange={(event) => setChoiceId(event.target.value)}
        >
          {choices.map((candidate) => (
            <MenuItem key={candidate.id} value={candidate.id}>
              {candidate.label}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell sx={{ minWidth: 220 }}>
        {param && choice?.fixedValue === undefined && (
          <FilterValueInput
            kind={valueInputKind(param.type, parameterElementTypes(schema, param))}
            value={value}
            onChange={setValue}
            showComparator={choice?.operator === Operator.EQUALS}
          />
        )}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        <Button size="small" variant="contained" disabled={!param || !choice} onClick={save}>
          {saveLabel}
        </Button>
        {onCancel && (
          <Button size="small" onClick={onCancel} sx={{ ml: 1 }}>
            Cancel
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
