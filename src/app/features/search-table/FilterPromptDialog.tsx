// The single-filter prompt (SPEC §2): the column menu's 'Equals...', 'Does not equal...' and
// 'Contains...' ask for one value here; OK adds the filter.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type KeyboardEvent } from 'react';
import { FilterValueInput } from './FilterValueInput';
import type { ValueInputKind } from './valueInputKind';

export interface FilterPromptDialogProps {
  /** e.g. 'Status: Does not equal...' */
  readonly title: string;
  readonly kind: ValueInputKind;
  /** A quantity's comparator select ('Equals...' only; SPEC §5). */
  readonly showComparator?: boolean;
  readonly onOk: (value: string) => void;
  readonly onClose: () => void;
}

/** Rendered only while open, so each prompt starts empty. */
export function FilterPromptDialog({
  title,
  kind,
  showComparator = true,
  onOk,
  onClose,
}: FilterPromptDialogProps) {
  const titleId = useId();
  const [value, setValue] = useState('');
  const submit = () => {
    if (value.trim()) onOk(value.trim());
  };
  // Enter in the value field is OK, as in a form.
  const onKeyDown = (event: KeyboardEvent) => {
    if (
      event.key === 'Enter' &&
      !event.defaultPrevented &&
      (event.target as HTMLElement).tagName === 'INPUT'
    ) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <div onKeyDown={onKeyDown}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <FilterValueInput
            kind={kind}
            value={value}
            onChange={setValue}
            showComparator={showComparator}
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="contained" disabled={!value.trim()} onClick={submit}>
            OK
          </Button>
        </DialogActions>
      </div>
    </Dialog>
  );
}
