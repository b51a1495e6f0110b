// The Filters dialog (SPEC §2, §4; §9 width 900): the search's filters as a table of Field,
// Operation, Value and Actions (Edit, Delete), an add row with Add, an edit row with Save and
// Cancel, and OK, which hands the list back (the table then resets the offset, SPEC §4).
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useId, useState } from 'react';
import type { Filter } from '../../../fhir/search';
import { FilterEditRow } from './FilterEditRow';
import { filterTarget, operatorLabel } from './operators';
import type { TableSchema } from './tableSchema';
import { filterValueText } from './valueInputKind';

export const FILTERS_DIALOG_WIDTH = 900;

export interface FiltersDialogProps {
  readonly schema: TableSchema;
  readonly filters: readonly Filter[];
  readonly onOk: (filters: Filter[]) => void;
  readonly onClose: () => void;
}

export function FiltersDialog({ schema, filters: initial, onOk, onClose }: FiltersDialogProps) {
  const titleId = useId();
  const [filters, setFilters] = useState<Filter[]>([...initial]);
  const [editing, setEditing] = useState<number | undefined>(undefined);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: FILTERS_DIALOG_WIDTH, maxWidth: 'calc(100% - 16px)', m: 1 } } }}
    >
      <DialogTitle id={titleId}>Filters</DialogTitle>
      <DialogContent sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell>Field</TableCell>
              <TableCell>Operation</TableCell>
              <TableCell>Value</TableCell>
              <TableCell>Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {filters.map((filter, index) => {
              const target = filterTarget(filter);
              const param = schema.parameters.get(target.code);
              if (index === editing) {
                return (
                  <FilterEditRow
                    key={`edit-${index}`}
                    schema={schema}
                    initial={filter}
                    saveLabel="Save"
                    onSave={(saved) => {
                      setFilters(filters.map((other, i) => (i === index ? saved : other)));
                      setEditing(undefined);
                    }}
                    onCancel={() => setEditing(undefined)}
                  />
                );
              }
              const operation = param ? operatorLabel(param.type, filter) : filter.operator;
              const shownValue =
                filter.operator === 'missing' ? '' : filterValueText(param?.type, target.value);
              return (
                <TableRow key={`${filter.code}-${index}`}>
                  <TableCell>{target.code}</TableCell>
                  <TableCell>{operation}</TableCell>
                  <TableCell>{shownValue}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      aria-label={`Edit ${target.code} ${operation}`}
                      onClick={() => setEditing(index)}
                    >
                      Edit
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${target.code} ${operation}`}
                      onClick={() => {
                        setFilters(filters.filter((_, i) => i !== index));
                        setEditing(undefined);
                      }}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })}
            <FilterEditRow
              schema={schema}
              saveLabel="Add"
              onSave={(filter) => setFilters([...filters, filter])}
            />
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => onOk(filters)}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
