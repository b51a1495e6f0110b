// A Vite plugin: the MUI components that @mui/x-data-grid's default slots import (material/index.mjs)
// but the search table never renders become stand-ins that download on first render
// (src/app/features/search-table/deferredGridPart.tsx). The grid's filter panel, column manager,
// pager and toolbar use them; the table has its own (FiltersDialog, FieldsDialog, TablePager,
// TableToolbar). Only imports made by that one file are replaced, and a grid file's import of a
// deferred component's class names only (CLASS_NAME_IMPORTS): everywhere else in the app the
// components are imported as usual. The build fails when the grid stops importing one of them as
// listed (a DataGrid upgrade changed it), so the lists are looked at again rather than silently stale.
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
  /** Shown only on hover or in an open menu: downloads when a pointer or the focus enters the table. */
  readonly onIntent?: boolean;
}

/** The grid's default slot components, the one importer whose imports are replaced. */
export const GRID_MATERIAL_SLOTS = /[\\/]@mui[\\/]x-data-grid[\\/]material[\\/]index\.mjs$/;

/**
 * The grid's imports that stay as they are, because they render with the table's rows (the loading
 * rows' skeleton, the column headers' buttons), or because the table's own
 * controls load them anyway (Button in the toolbar, Chip in the sort rules, Paper everywhere).
 */
export const KEPT_GRID_PARTS: readonly string[] = [
  '@mui/material/Button',
  '@mui/material/Chip',
  '@mui/material/IconButton',
  '@mui/material/Paper',
  '@mui/material/Skeleton',
  '@mui/material/styles',
];

/**
 * The components deferred, by the specifier the grid imports them with: the grid's filter panel
 * (Autocomplete, InputAdornment), column manager (Switch, FormControlLabel), pager (TablePagination),
 * toolbar and pivot panels (ToggleButton, Tabs, Tab, Badge), the linear-progress loading overlay, and the
 * text fields and selects of the filter panel and the edit cells (TextField, Select, FormControl,
 * InputLabel); and, downloaded when a pointer or the focus enters the table, the hover hints and the
 * column menu.
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
  // The filter panel's and the quick filter's text input (the column manager takes its classes only).
  '@mui/material/InputBase': {},
  '@mui/material/LinearProgress': {},
  '@mui/material/Switch': {},
  '@mui/material/Tab': {},
  '@mui/material/TablePagination': {
    named: ['tablePaginationClasses'],
  },
  '@mui/material/Tabs': {},
  '@mui/material/ToggleButton': {},
  // Hover hints and the column menu (its popper, list, focus trap and click-away), with what only they
  // import (Popper.js): needed only once a user points at a header or opens a menu.
  '@mui/material/Tooltip': { childrenWhileLoading: true, onIntent: true },
  '@mui/material/Popper': { onIntent: true },
  '@mui/material/MenuList': { onIntent: true },
  '@mui/material/Modal': { onIntent: true },
  '@mui/material/Unstable_TrapFocus': { childrenWhileLoading: true, onIntent: true },
  '@mui/material/ClickAwayListener': { childrenWhileLoading: true, onIntent: true },
  '@mui/material/Grow': { onIntent: true },
  '@mui/material/Divider': { onIntent: true },
  '@mui/material/MenuItem': { onIntent: true },
  '@mui/material/ListItemIcon': { onIntent: true },
  '@mui/material/ListItemText': { onIntent: true, named: ['listItemTextClasses'] },
  // The table's checkboxes are native (GridCheckbox), its loading overlay its own (LoadingRows); the
  // circular loading overlay and the long-text editor are never shown.
  '@mui/material/Checkbox': {},
  '@mui/material/CircularProgress': {},
  '@mui/material/TextareaAutosize': {},
};

/**
 * Other grid files that import a deferred component's index for its class names only: the import is
 * sent to the class names' own module, so it does not bring the component back (by file, the
 * specifier and the module's name beside the index).
 */
export const CLASS_NAME_IMPORTS: Readonly<Record<string, { specifier: string; module: string }>> = {
  'components/columnsManagement/GridColumnsManagement.mjs': {
    specifier: '@mui/material/InputBase',
    module: 'inputBaseClasses',
  },
};

/** The grid file an importer is, relative to @mui/x-data-grid, or undefined for any other file. */
function gridFileOf(importer: string): string | undefined {
  const match = /[\\/]@mui[\\/]x-data-grid[\\/](.+)$/.exec(importer);
  return match?.[1].replace(/\\/g, '/');
}

const STAND_IN = '\0bloom-deferred-grid-part:';
const CLASS_NAMES = '\0bloom-grid-class-names:';

/** A module with one named export, `name`: the default export of the class names' module `file`. */
export function classNamesModule(name: string, file: string): string {
  return `export { default as ${name} } from ${JSON.stringify(file.replace(/\\/g, '/'))};`;
}
const HELPER = path.resolve('src/app/features/search-table/deferredGridPart.tsx');

/** The stand-in module's code for one deferred component, whose index module is at `index`. */
export function standInModule(specifier: string, index: string, part: DeferredPart, helper = HELPER): string {
  const lines = [
    `import { deferredGridPart } from ${JSON.stringify(helper.replace(/\\/g, '/'))};`,
    `export default deferredGridPart(() => import(${JSON.stringify(specifier)}), ${part.childrenWhileLoading === true}, ${part.onIntent === true});`,
  ];
  for (const name of part.named ?? []) {
    const file = path.join(path.dirname(index), `${name}.mjs`).replace(/\\/g, '/');
    lines.push(`export { default as ${name} } from ${JSON.stringify(file)};`);
  }
  return lines.join('\n');
}

export function deferredGridParts(): Plugin {
  const seen = new Set<string>();
  const classNamesSeen = new Set<string>();
  let gridSlotsSeen = false;
  return {
    name: 'bloom-deferred-grid-parts',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      seen.clear();
      classNamesSeen.clear();
      gridSlotsSeen = false;
    },
    async resolveId(source, importer) {
      if (source.startsWith(STAND_IN)) return source;
      const classNames = importer ? CLASS_NAME_IMPORTS[gridFileOf(importer) ?? ''] : undefined;
      if (classNames?.specifier === source) {
        const index = await this.resolve(source, importer, { skipSelf: true });
        if (!index) this.error(`cannot resolve ${source}`);
        classNamesSeen.add(gridFileOf(importer ?? '') ?? '');
        const file = path.join(path.dirname(index.id), `${classNames.module}.mjs`);
        return `${CLASS_NAMES}${classNames.module}:${file}`;
      }
      if (!importer || !GRID_MATERIAL_SLOTS.test(importer)) return null;
      gridSlotsSeen = true;
      if (!(source in DEFERRED_GRID_PARTS)) return null;
      seen.add(source);
      return STAND_IN + source;
    },
    async load(id) {
      if (id.startsWith(CLASS_NAMES)) {
        const [name, ...file] = id.slice(CLASS_NAMES.length).split(':');
        return classNamesModule(name, file.join(':'));
      }
      if (!id.startsWith(STAND_IN)) return null;
      const specifier = id.slice(STAND_IN.length);
      const index = await this.resolve(specifier);
      if (!index) this.error(`cannot resolve ${specifier}`);
      return standInModule(specifier, index.id, DEFERRED_GRID_PARTS[specifier]);
    },
    buildEnd(error) {
      if (error || !gridSlotsSeen) return;
      const missing = [
        ...Object.keys(DEFERRED_GRID_PARTS).filter((specifier) => !seen.has(specifier)),
        ...Object.keys(CLASS_NAME_IMPORTS).filter((file) => !classNamesSeen.has(file)),
      ];
      if (missing.length > 0) {
        this.error(
          `@mui/x-data-grid no longer imports ${missing.join(', ')} as expected: ` +
            'look at scripts/deferred-grid-parts.ts again (a DataGrid upgrade changed its default slots)',
        );
      }
    },
  };
}
