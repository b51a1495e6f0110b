// The generic resource search table (SPEC §2, §3, §4) on MUI DataGrid. The FHIR search
// request in the URL is the single source of truth: the grid runs in server modes with controlled
// props (its header sort is the request's first sort rule, its page the request's offset), FHIR
// filters live outside the grid's filter model, and every change is a navigation, so links are
// shareable and the back button steps through searches.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { Theme } from '@mui/material/styles';
import type { Resource } from '@medplum/fhirtypes';
import {
  DataGrid,
  type GridColDef,
  type GridCellParams,
  type GridColumnResizeParams,
  type GridRenderCellParams,
  type GridRowSelectionModel,
  type GridSlots,
  type GridSortDirection,
  type GridSortModel,
} from '@mui/x-data-grid';
import { Suspense, useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Operator } from '../../../fhir/search';
import { ColumnMenuContext, type ColumnMenuHandlers } from './columnMenuContext';
import { LazyTableColumnMenu } from './lazyColumnMenu';
import {
  columnMenuItems,
  filterTarget,
  promptFilter,
  promptShowsComparator,
  type ColumnMenuItem,
} from './operators';
import { fieldText } from './fieldValue';
import {
  BulkDialog,
  DeleteDialog,
  ExportDialog,
  FieldsDialog,
  FilterPromptDialog,
  FiltersDialog,
} from './lazyDialogs';
import { loadIntentParts } from './deferredGridPart';
import { GRID_CHECKBOX, GridCheckbox } from './GridCheckbox';
import { platformScrollbarSize } from './scrollbarSize';
import { SearchErrorPanel } from './SearchErrorPanel';
import {
  addFilter,
  clearFiltersOf,
  effectiveRequest,
  readTableSearch,
  setFields,
  setFilters,
  setOffset,
  setSort,
  setSortRules,
  tableFields,
  writeTableSearch,
  type TableSearch,
} from './searchState';
import { TablePager } from './TablePager';
import { TableToolbar } from './TableToolbar';
import { fieldLabel, parameterElementTypes, parameterForField, type TableSchema } from './tableSchema';
import { useSearchResults } from './useSearchResults';
import { useTableSettings } from './useTableSettings';
import { valueInputKind } from './valueInputKind';

type Row = Resource & { id: string };
type OpenDialog =
  | { kind: 'fields' | 'filters' | 'export' | 'delete' | 'bulk' }
  | { kind: 'prompt'; field: string; item: ColumnMenuItem };

const EMPTY_SELECTION: GridRowSelectionModel = { type: 'include', ids: new Set() };
const DEFAULT_COLUMN_WIDTH = 180;
/** DataGrid's standard density: header and row heights (px), and its 1 px border on both sides. */
const HEADER_HEIGHT = 56;
const ROW_HEIGHT = 52;
const BORDERS = 2;

/**
 * The grid's height: a page's rows when they fit, else what the screen leaves under the toolbar
 * (at least a few rows on a phone, at most a tall desktop screenful); the grid scrolls inside it.
 */
function gridHeight(pageSize: number): Record<'xs' | 'md', string> {
  const page = HEADER_HEIGHT + Math.max(pageSize, 3) * ROW_HEIGHT + BORDERS;
  return {
    xs: `min(${page}px, max(320px, 100vh - 240px))`,
    md: `min(${page}px, max(420px, 100vh - 280px), 840px)`,
  };
}

function parseLocation(schema: TableSchema, search: string): { state: TableSearch; error: unknown } {
  try {
    return { state: readTableSearch(schema.resourceType, search, schema.lookup), error: undefined };
  } catch (error) {
    return { state: { request: { resourceType: schema.resourceType } }, error };
  }
}

/**
 * `waiting`: the route's first requests are still out (./tablePrefetch): the grid shows itself loading
 * and asks for nothing until their answers are in the cache.
 */
export function SearchTable({ schema, waiting = false }: { schema: TableSchema; waiting?: boolean }) {
  const { resourceType } = schema;
  const location = useLocation();
  const navigate = useNavigate();
  const { loaded, settings, update } = useTableSettings(resourceType);
  const [refreshCount, setRefreshCount] = useState(0);
  const [dialog, setDialog] = useState<OpenDialog | undefined>(undefined);
  const { state, error: urlError } = useMemo(
    () => parseLocation(schema, location.search),
    [schema, location.search],
  );

  // The stored field choice applies while the URL names none.
  const fields = useMemo(() => tableFields(state.request, settings.fields), [state.request, settings.fields]);
  const request = urlError || !loaded || waiting ? undefined : effectiveRequest({ ...state.request, fields });
  const results = useSearchResults(request, refreshCount);
  // The grid's props keep their identity while their content does: each new rows array, model or slot
  // object makes DataGrid process and render its rows again.
  const rows = useMemo(
    () => results.rows.filter((row): row is Row => typeof row.id === 'string'),
    [results.rows],
  );

  // Selection belongs to one search: a new query string starts with none selected.
  const searchKey = location.search;
  const [selection, setSelection] = useState({ key: searchKey, model: EMPTY_SELECTION });
  // Forget it on every change (React's reset-during-render), so the back button to an earlier
  // search does not bring that search's old selection back.
  if (selection.key !== searchKey) setSelection({ key: searchKey, model: EMPTY_SELECTION });
  const selectionModel = selection.key === searchKey ? selection.model : EMPTY_SELECTION;
  const selectedIds = rows
    .map((row) => row.id)
    .filter((id) =>
      selectionModel.type === 'include' ? selectionModel.ids.has(id) : !selectionModel.ids.has(id),
    );

  const go = useCallback(
    (next: TableSearch) => {
      const query = writeTableSearch(next);
      if (query !== (location.search === '?' ? '' : location.search)) navigate({ search: query });
    },
    [location.search, navigate],
  );

  const fieldParameter = useCallback((field: string) => parameterForField(schema, field), [schema]);

  const menuHandlers = useMemo<ColumnMenuHandlers>(
    () => ({
      itemsFor: (field) => columnMenuItems(fieldParameter(field)?.type),
      hasFilters: (field) => {
        const code = fieldParameter(field)?.code;
        return (state.request.filters ?? []).some((filter) => filterTarget(filter).code === code);
      },
      onAction: (field, item) => {
        const param = fieldParameter(field);
        if (!param) return;
        switch (item.action) {
          case 'sort-asc':
          case 'sort-desc':
            go(setSort(state, param.code, item.action === 'sort-desc'));
            return;
          case 'missing':
          case 'not-missing':
            go(
              addFilter(state, {
                code: param.code,
                operator: Operator.MISSING,
                value: item.action === 'missing' ? 'true' : 'false',
              }),
            );
            return;
          case 'clear':
            go(clearFiltersOf(state, param.code));
            return;
          default:
            setDialog({ kind: 'prompt', field, item });
        }
      },
    }),
    [fieldParameter, go, state],
  );

  // What the columns show, as one string: the schema arriving after the rows (a provisional schema
  // first) or a re-render keeps the same column objects when it changes nothing the header shows, so
  // the grid does not process its columns and draw every cell again.
  const columnSpecs = JSON.stringify(
    fields.map((field): ColumnSpec => {
      const param = fieldParameter(field);
      return {
        field,
        label: schema.fields.find((candidate) => candidate.name === field)?.label ?? fieldLabel(field),
        width: settings.widths?.[field] ?? DEFAULT_COLUMN_WIDTH,
        sortable: param !== undefined && param.type !== 'composite' && param.type !== 'special',
      };
    }),
  );
  const columns = useMemo(() => gridColumns(resourceType, columnSpecs), [resourceType, columnSpecs]);

  // The header shows the first sort rule when a column sorts by it.
  const firstRule = state.request.sortRules?.[0];
  const sortField = firstRule
    ? fields.find((field) => fieldParameter(field)?.code === firstRule.code)
    : undefined;
  const sortDirection = firstRule?.descending ? 'desc' : 'asc';
  const sortModel = useMemo<GridSortModel>(
    () => (sortField ? [{ field: sortField, sort: sortDirection }] : []),
    [sortField, sortDirection],
  );

  const onSortModelChange = (model: GridSortModel) => {
    const first = model[0];
    const param = first ? fieldParameter(first.field) : undefined;
    if (first?.sort && param) go(setSort(state, param.code, first.sort === 'desc'));
  };

  const offset = request?.offset ?? 0;
  const count = request?.count ?? 20;
  const page = Math.floor(offset / count);
  const paginationModel = useMemo(() => ({ page, pageSize: count }), [page, count]);
  const pageSizeOptions = useMemo(() => [count], [count]);
  // DataGrid's root is `flex: 1 1 0%`; in this column box, whose height follows its content, that
  // basis sized the grid to all its rows and rendered every one. `none` lets the height hold.
  const gridSx = useMemo(() => ({ ...GRID_SX, flex: 'none', height: gridHeight(count) }), [count]);
  // The grid's handlers keep their identity across renders (DataGrid is memoised on its props).
  const widths = settings.widths;
  const onColumnWidthChange = useCallback(
    (params: GridColumnResizeParams) =>
      update({ widths: { ...widths, [params.colDef.field]: Math.round(params.width) } }),
    [update, widths],
  );
  const onRowSelectionModelChange = useCallback(
    (model: GridRowSelectionModel) => setSelection({ key: searchKey, model }),
    [searchKey],
  );
  const onCellKeyDown = useCallback(
    (params: GridCellParams, event: KeyboardEvent) => {
      // Enter on a focused cell opens its row, as a click on its link would.
      if (event.key !== 'Enter' || params.field === '__check__') return;
      event.preventDefault();
      const path = `/${resourceType}/${String(params.id)}`;
      if (event.ctrlKey || event.metaKey) window.open(path, '_blank', 'noopener');
      else navigate(path);
    },
    [navigate, resourceType],
  );
  const [scrollbarSize] = useState(platformScrollbarSize);
  const error = urlError ?? results.error;
  const loading = !error && (request === undefined || results.loading);

  const chooseFields = (chosen: string[]) => {
    update({ fields: chosen });
    go(setFields(state, chosen));
    setDialog(undefined);
  };
  const promptField = dialog?.kind === 'prompt' ? dialog.field : undefined;
  const promptParam = promptField ? fieldParameter(promptField) : undefined;

  return (
    // A pointer or the focus in the table: its tooltips and menus start downloading.
    <Box
      sx={{ display: 'flex', flexDirection: 'column', gap: 1, width: '100%' }}
      onPointerOver={loadIntentParts}
      onFocus={loadIntentParts}
    >
      <TableToolbar
        resourceType={resourceType}
        schema={schema}
        sortRules={state.request.sortRules ?? []}
        selectedCount={selectedIds.length}
        onFields={() => setDialog({ kind: 'fields' })}
        onFilters={() => setDialog({ kind: 'filters' })}
        onNew={() => navigate(`/${resourceType}/new`)}
        onExport={() => setDialog({ kind: 'export' })}
        onDelete={() => setDialog({ kind: 'delete' })}
        onBulk={() => setDialog({ kind: 'bulk' })}
        onRefresh={() => setRefreshCount((value) => value + 1)}
        onSortRulesChange={(rules) => go(setSortRules(state, rules))}
      />
      <ColumnMenuContext.Provider value={menuHandlers}>
        {/* A failed search replaces the grid: an alert inside role="grid" is not a row (axe). */}
        {error ? (
          <SearchErrorPanel error={error} />
        ) : (
          <DataGrid<Row>
            aria-label={`${resourceType} search results`}
            rows={rows}
            columns={columns}
            getRowId={rowId}
            loading={loading}
            paginationMode="server"
            sortingMode="server"
            filterMode="server"
            disableColumnFilter
            hideFooter
            rowCount={results.total ?? -1}
            paginationModel={paginationModel}
            pageSizeOptions={pageSizeOptions}
            sortModel={sortModel}
            sortingOrder={SORTING_ORDER}
            onSortModelChange={onSortModelChange}
            checkboxSelection
            disableRowSelectionOnClick
            rowSelectionModel={selectionModel}
            onRowSelectionModelChange={onRowSelectionModelChange}
            onColumnWidthChange={onColumnWidthChange}
            onCellKeyDown={onCellKeyDown}
            slots={GRID_SLOTS}
            // A fixed height keeps the grid's row virtualisation: it renders only the rows in view, so
            // a 100-row page costs what a screenful does (autoHeight would render every row).
            sx={gridSx}
            scrollbarSize={scrollbarSize}
          />
        )}
      </ColumnMenuContext.Provider>
      <TablePager
        offset={offset}
        count={count}
        shown={error ? 0 : rows.length}
        total={results.total}
        estimate={request?.total === 'estimate'}
        onOffsetChange={(next) => go(setOffset(state, next))}
      />
      {/* A dialog's code is still downloading: nothing shows until it can open. */}
      <Suspense fallback={null}>
        {dialog?.kind === 'prompt' && promptParam && (
          <FilterPromptDialog
            title={`${schema.fields.find((f) => f.name === dialog.field)?.label ?? dialog.field}: ${dialog.item.label}`}
            kind={valueInputKind(promptParam.type, parameterElementTypes(schema, promptParam))}
            onClose={() => setDialog(undefined)}
            showComparator={promptShowsComparator(dialog.item)}
            onOk={(value) => {
              go(addFilter(state, promptFilter(promptParam.type, promptParam.code, dialog.item, value)));
              setDialog(undefined);
            }}
          />
        )}
        {dialog?.kind === 'fields' && (
          <FieldsDialog
            schema={schema}
            fields={fields}
            onOk={chooseFields}
            onClose={() => setDialog(undefined)}
          />
        )}
        {dialog?.kind === 'filters' && (
          <FiltersDialog
            schema={schema}
            filters={state.request.filters ?? []}
            onClose={() => setDialog(undefined)}
            onOk={(filters) => {
              go(setFilters(state, filters));
              setDialog(undefined);
            }}
          />
        )}
        {dialog?.kind === 'export' && request && (
          <ExportDialog request={request} fields={fields} onClose={() => setDialog(undefined)} />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteDialog
            resourceType={resourceType}
            ids={selectedIds}
            onClose={() => setDialog(undefined)}
            onDeleted={() => {
              setSelection({ key: searchKey, model: EMPTY_SELECTION });
              setRefreshCount((value) => value + 1);
            }}
          />
        )}
        {dialog?.kind === 'bulk' && (
          <BulkDialog resourceType={resourceType} ids={selectedIds} onClose={() => setDialog(undefined)} />
        )}
      </Suspense>
    </Box>
  );
}

/** One column as the header shows it. */
interface ColumnSpec {
  readonly field: string;
  readonly label: string;
  readonly width: number;
  readonly sortable: boolean;
}

const rowId = (row: Row) => row.id;

/** The class of a cell's link, styled once on the grid rather than per cell. */
const CELL_LINK = 'bloom-cell-link';

/**
 * The grid's own styles: its cells' links look like the cell's text, underlined on hover; its native
 * checkboxes have the size and the hit area of MUI's, in the theme's primary colour.
 */
const GRID_SX = {
  [`& .${CELL_LINK}`]: { color: 'inherit', textDecoration: 'none' },
  [`& .${CELL_LINK}:hover`]: { textDecoration: 'underline' },
  [`& .${GRID_CHECKBOX}`]: { display: 'inline-flex', alignItems: 'center', gap: 1, p: '9px' },
  [`& .${GRID_CHECKBOX} input`]: {
    width: 18,
    height: 18,
    m: 0,
    cursor: 'pointer',
    accentColor: (theme: Theme) => theme.palette.primary.main,
  },
} as const;

function gridColumns(resourceType: string, specs: string): GridColDef<Row>[] {
  return (JSON.parse(specs) as ColumnSpec[]).map(({ field, label, width, sortable }) => ({
    field,
    headerName: label,
    width,
    sortable,
    valueGetter: (_value: never, row: Row) => fieldText(row as unknown as Record<string, unknown>, field),
    // An empty cell has no link (a link without text has no name, axe link-name); Enter on the cell
    // still opens the row, and the row's other cells link to it. A plain router link: an MUI Link per
    // cell costs a styled component's work for each of a page's cells.
    renderCell: (params: GridRenderCellParams<Row, string>) =>
      params.value ? (
        <RouterLink
          className={CELL_LINK}
          to={`/${resourceType}/${params.row.id}`}
          tabIndex={params.hasFocus ? 0 : -1}
          // A narrow column cuts the text: the whole value shows on hover.
          title={params.value}
        >
          {params.value}
        </RouterLink>
      ) : null,
  }));
}

const SORTING_ORDER: GridSortDirection[] = ['asc', 'desc'];
const GRID_SLOTS: Partial<GridSlots> = {
  baseCheckbox: GridCheckbox,
  columnMenu: LazyTableColumnMenu,
  noRowsOverlay: NoResults,
  loadingOverlay: LoadingRows,
};
/**
 * The rows' place while they load: a few bars, where DataGrid's skeleton overlay draws a cell for
 * every column of every row in view.
 */
function LoadingRows() {
  return (
    <Box aria-hidden sx={{ px: 2, py: 1 }}>
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} height={36} />
      ))}
    </Box>
  );
}

function NoResults() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', p: 2 }}>
      No results
    </Box>
  );
}
