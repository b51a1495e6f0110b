// The per-column menu (SPEC §2), in place of DataGrid's own: sort and filter choices by the column's
// search-parameter type (./operators). GridColumnMenuContainer is a MUI MenuList, so arrow keys,
// Home/End and Escape work as in every menu. The table hands its handlers down through context,
// because DataGrid creates the menu itself. Its own chunk (see ./lazyColumnMenu), downloaded when
// a pointer or the focus first enters the table.
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { GridColumnMenuContainer, type GridColumnMenuProps } from '@mui/x-data-grid';
import { useContext } from 'react';
import { ColumnMenuContext } from './columnMenuContext';
import type { ColumnMenuAction } from './operators';

export function TableColumnMenu(props: GridColumnMenuProps) {
  const handlers = useContext(ColumnMenuContext);
  const { hideMenu, colDef, ...other } = props;
  const items = handlers?.itemsFor(colDef.field) ?? [];
  const disabled = (action: ColumnMenuAction) => action === 'clear' && !handlers?.hasFilters(colDef.field);
  return (
    <GridColumnMenuContainer hideMenu={hideMenu} colDef={colDef} {...other}>
      {items.length === 0 && (
        <MenuItem disabled>
          <ListItemText>No search on this field</ListItemText>
        </MenuItem>
      )}
      {items.map((item) => (
        <MenuItem
          key={item.action}
          disabled={disabled(item.action)}
          onClick={(event) => {
            hideMenu(event);
            handlers?.onAction(colDef.field, item);
          }}
        >
          <ListItemText>{item.label}</ListItemText>
        </MenuItem>
      ))}
    </GridColumnMenuContainer>
  );
}
