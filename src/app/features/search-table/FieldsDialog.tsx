// The Fields dialog (SPEC §2; §9 select width 550): a searchable multi-select of the type's fields in
// the order chosen (the columns' order), Clear selection, OK. An empty choice means the defaults.
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import type { TableSchema } from './tableSchema';

export const FIELDS_SELECT_WIDTH = 550;

export interface FieldsDialogProps {
  readonly schema: TableSchema;
  readonly fields: readonly string[];
  readonly onOk: (fields: string[]) => void;
  readonly onClose: () => void;
}

export function FieldsDialog({ schema, fields, onOk, onClose }: FieldsDialogProps) {
  const titleId = useId();
  const [chosen, setChosen] = useState<string[]>([...fields]);
  const labels = new Map(schema.fields.map((field) => [field.name, field.label]));
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth={false}>
      <DialogTitle id={titleId}>Fields</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <Autocomplete
          multiple
          disableCloseOnSelect
          options={schema.fields.map((field) => field.name)}
          getOptionLabel={(name) => labels.get(name) ?? name}
          value={chosen}
          onChange={(_event, value) => setChosen(value)}
          noOptionsText="Nothing found"
          sx={{ width: FIELDS_SELECT_WIDTH, maxWidth: '100%' }}
          renderInput={(params) => (
            <TextField {...params} label="Fields" placeholder="Search fields" autoFocus />
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setChosen([])} disabled={chosen.length === 0}>
          Clear selection
        </Button>
        <Button variant="contained" onClick={() => onOk(chosen)}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
