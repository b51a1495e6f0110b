// What the column menu needs from the table, handed down through context because DataGrid creates the
// menu itself.
import { createContext } from 'react';
import type { ColumnMenuItem } from './operators';

export interface ColumnMenuHandlers {
  readonly itemsFor: (field: string) => ColumnMenuItem[];
  readonly hasFilters: (field: string) => boolean;
  readonly onAction: (field: string, item: ColumnMenuItem) => void;
}

export const ColumnMenuContext = createContext<ColumnMenuHandlers | undefined>(undefined);
