// The table's dialogs download when first opened, not with the grid: a visit that only reads rows
// never pays for Fields, Filters, Export, Delete, Bulk or the column-menu prompt (SPEC §2 search
// table; the search table's wire budget). retryableLazy lets a failed download be tried again.
import { retryableLazy } from '../../components/retryableLazy';

export const FieldsDialog = retryableLazy(() =>
  import('./FieldsDialog').then((module) => ({ default: module.FieldsDialog })),
);
export const FiltersDialog = retryableLazy(() =>
  import('./FiltersDialog').then((module) => ({ default: module.FiltersDialog })),
);
export const ExportDialog = retryableLazy(() =>
  import('./ExportDialog').then((module) => ({ default: module.ExportDialog })),
);
export const DeleteDialog = retryableLazy(() =>
  import('./DeleteDialog').then((module) => ({ default: module.DeleteDialog })),
);
export const BulkDialog = retryableLazy(() =>
  import('./BulkDialog').then((module) => ({ default: module.BulkDialog })),
);
export const FilterPromptDialog = retryableLazy(() =>
  import('./FilterPromptDialog').then((module) => ({ default: module.FilterPromptDialog })),
);
