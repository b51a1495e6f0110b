// The 'Sort by...' / 'Then by...' menu of SortRules: its own chunk, downloaded when first opened, so
// the table's first rows do not wait for MUI's Menu (with its popover, modal and focus trap).
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';

export interface SortRuleMenuProps {
  readonly id: string;
  readonly label: string;
  readonly anchor: HTMLElement | null;
  readonly choices: readonly string[];
  readonly onChoose: (code: string) => void;
  readonly onClose: () => void;
}

export default function SortRuleMenu({ id, label, anchor, choices, onChoose, onClose }: SortRuleMenuProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      slotProps={{ paper: { sx: { maxHeight: 320 } }, list: { 'aria-label': label } }}
    >
      {choices.map((code) => (
        <MenuItem key={code} onClick={() => onChoose(code)}>
          {code}
        </MenuItem>
      ))}
    </Menu>
  );
}
