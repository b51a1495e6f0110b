// A Vite plugin: the MUI components that @mui/x-data-grid's default slots import (material/index.mjs)
// but the search table never renders become stand-ins that download on first render
// (src/app/features/search-table/deferredGridPart.tsx). The grid's filter panel, column manager,
// pager and toolbar use them; the table has its own (FiltersDialog, FieldsDialog, TablePager,
// TableToolbar). Only imports made by that one file are replaced: everywhere else in the app the
// components are imported as usual. The build fails when the grid's file stops importing one of
// them (a DataGrid upgrade changed it), so the list is looked at again rather than silently stale.
import path from 'node:path';
import type { Plugin } from 'vite';

/** How one deferred component's stand-in is made. */
export interface DeferredPart {
  /** Render the stand-in's children while the component downloads (a wrapper, e.g. a badge). */
  readonly childrenWhileLoading?: boolean;
  /**
   * Named exports the grid imports beside the component, each the default export of a module of that
   * name beside the component's (e.g. TablePagination/tablePaginationClasses.mjs, which package.json's
   * exports do not list): importing them from the component's index would bundle the component too.
   */
  readonly named?: readonly string[];
}

/** The grid's default slot components, the one importer whose imports are replaced. */
export const GRID_MATERIAL_SLOTS = /[\\/]@mui[\\/]x-data-grid[\\/]material[\\/]index\.mjs$/;

/**
 * The grid's imports that stay as they are, because they render with the table (checkbox selection,
 * the loading rows' skeleton, the column headers' tooltips and buttons, the column menu's popper and
 * list), or because the table's own controls load them anyway (Chip in the sort rules), or because the
 * grid's base input is InputBase (bringing TextareaAutosize along).
 */
export const KEPT_GRID_PARTS: readonly string[] = [
  '@mui/material/Button',
  '@mui/material/Checkbox',
  '@mui/material/Chip',
  '@mui/material/CircularProgress',
  '@mui/material/ClickAwayListener',
  '@mui/material/Divider',
  '@mui/material/Grow',
  '@mui/material/IconButton',
  '@mui/material/InputBase',
  '@mui/material/ListItemIcon',
  '@mui/material/ListItemText',
  '@mui/material/MenuItem',
  '@mui/material/MenuList',
  '@mui/material/Modal',
  '@mui/material/Paper',
  '@mui/material/Popper',
  '@mui/material/Skeleton',
  '@mui/material/TextareaAutosize',
  '@mui/material/Tooltip',
  '@mui/material/Unstable_TrapFocus',
  '@mui/material/styles',
];

/**
 * The components deferred, by the specifier the grid imports them with: the grid's filter panel
 * (Autocomplete, InputAdornment), column manager (Switch, FormControlLabel), pager (TablePagination),
 * toolbar and pivot panels (ToggleButton, Tabs, Tab, Badge), the linear-progress loading overlay, and the
 * text fields and selects of the filter panel and the edit cells (TextField, Select, FormControl,
 * InputLabel).
 */
export const DEFERRED_GRID_PARTS: Readonly<Record<string, DeferredPart>> = {
  '@mui/material/Autocomplete': {},
  // The filter panel's and the edit cells' fields and selects (the table edits nothing in the grid).
  '@mui/material/FormControl': {},
  '@mui/material/InputLabel': {},
  '@mui/material/Select': {},
  '@mui/material/TextField': {},
  // The sort button wraps its icon in a badge for a multi-column sort index only (not in DataGrid).
  '@mui/material/Badge': { childrenWhileLoading: true },
  '@mui/material/FormControlLabel': {
    named: ['formControlLabelClasses'],
  },
  '@mui/material/InputAdornment': {
    named: ['inputAdornmentClasses'],
  },
  '@mui/material/LinearProgress': {},
  '@mui/material/Switch': {},
  '@mui/material/Tab': {},
  '@mui/material/TablePagination': {
    named: ['tablePaginationClasses'],
  },
  '@mui/material/Tabs': {},
  '@mui/material/ToggleButton': {},
};

const STAND_IN = '\0bloom-deferred-grid-part:';
const HELPER = path.resolve('src/app/features/search-table/deferredGridPart.tsx');

/** The stand-in module's code for one deferred component, whose index module is at `index`. */
export function standInModule(specifier: string, index: string, part: DeferredPart, helper = HELPER): string {
  const lines = [
    `import { deferredGridPart } from ${JSON.stringify(helper.replace(/\\/g, '/'))};`,
    `export default deferredGridPart(() => import(${JSON.stringify(specifier)}), ${part.childrenWhileLoading === true});`,
  ];
  for (const name of part.named ?? []) {
    const file = path.join(path.dirname(index), `${name}.mjs`).replace(/\\/g, '/');
    lines.push(`export { default as ${name} } from ${JSON.stringify(file)};`);
  }
  return lines.join('\n');
}

export function deferredGridParts(): Plugin {
  const seen = new Set<string>();
  let gridSlotsSeen = false;
  return {
    name: 'bloom-deferred-grid-parts',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      seen.clear();
      gridSlotsSeen = false;
    },
    resolveId(source, importer) {
      if (source.startsWith(STAND_IN)) return source;
      if (!importer || !GRID_MATERIAL_SLOTS.test(importer)) return null;
      gridSlotsSeen = true;
      if (!(source in DEFERRED_GRID_PARTS)) return null;
      seen.add(source);
      return STAND_IN + source;
    },
    async load(id) {
      if (!id.startsWith(STAND_IN)) return null;
      const specifier = id.slice(STAND_IN.length);
      const index = await this.resolve(specifier);
      if (!index) this.error(`cannot resolve ${specifier}`);
      return standInModule(specifier, index.id, DEFERRED_GRID_PARTS[specifier]);
    },
    buildEnd(error) {
      if (error || !gridSlotsSeen) return;
      const missing = Object.keys(DEFERRED_GRID_PARTS).filter((specifier) => !seen.has(specifier));
      if (missing.length > 0) {
        this.error(
          `@mui/x-data-grid/material/index.mjs no longer imports ${missing.join(', ')}: ` +
            'look at scripts/deferred-grid-parts.ts again (a DataGrid upgrade changed its default slots)',
        );
      }
    },
  };
}
