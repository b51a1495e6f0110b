// The column menu as the grid's slot: a stand-in whose code (./TableColumnMenu, with MUI's menu items)
// downloads once the table's first answer is on screen, not with the grid (./deferredGridPart).
import type { GridColumnMenuProps } from '@mui/x-data-grid';
import { deferredGridPart } from './deferredGridPart';

export const LazyTableColumnMenu = deferredGridPart<GridColumnMenuProps>(
  () => import('./TableColumnMenu').then((module) => ({ default: module.TableColumnMenu })),
  false,
  true,
);
