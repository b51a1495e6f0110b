// The column menu as the grid's slot: a stand-in whose code (./TableColumnMenu, with MUI's menu items)
// downloads when a pointer or the focus first enters the table, not with the grid (./deferredGridPart).
import type { GridColumnMenuProps } from '@mui/x-data-grid';
import { deferredGridPart } from './deferredGridPart';

export const LazyTableColumnMenu = deferredGridPart<GridColumnMenuProps>(
  () => import('./TableColumnMenu').then((module) => ({ default: module.TableColumnMenu })),
  false,
  true,
);
