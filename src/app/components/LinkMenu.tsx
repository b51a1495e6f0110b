// A menu of router links (the user menu, the collapsed main navigation) or of actions (the search
// table's sort choices): MUI's Menu with one MenuItem per entry, labelled by the button that opens it.
// Loaded on first open (LazyLinkMenu).
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { Link as RouterLink } from 'react-router-dom';

export interface LinkMenuItem {
  readonly label: string;
  readonly to: string;
}

/** A menu entry that acts instead of navigating (the language switch), in its own language. */
export interface ActionMenuItem {
  readonly label: string;
  readonly lang?: string;
  readonly onSelect: () => void;
}

export interface LinkMenuProps {
  readonly id: string;
  /** The id of the button that opens the menu (its accessible name). */
  readonly labelledBy: string;
  readonly anchor: HTMLElement | null;
  readonly items: readonly LinkMenuItem[];
  readonly actions?: readonly ActionMenuItem[];
  readonly onClose: () => void;
}

export default function LinkMenu({ id, labelledBy, anchor, items, actions = [], onClose }: LinkMenuProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      // A long menu (the search table's sort parameters) scrolls.
      slotProps={{ paper: { sx: { maxHeight: 320 } }, list: { 'aria-labelledby': labelledBy } }}
    >
      {items.map((item) => (
        <MenuItem key={item.label} component={RouterLink} to={item.to} onClick={onClose}>
          {item.label}
        </MenuItem>
      ))}
      {actions.map((action) => (
        <MenuItem
          key={action.label}
          lang={action.lang}
          onClick={() => {
            onClose();
            action.onSelect();
          }}
        >
          {action.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
