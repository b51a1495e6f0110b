// The build's stand-ins for the DataGrid parts the search table never renders (scripts/deferred-grid-parts.ts):
// the list must match what @mui/x-data-grid's default slots import, so a DataGrid upgrade that changes
// them fails here (and the build fails on a deferred import it no longer sees); a stand-in still renders
// the real component once downloaded.
import fs from 'node:fs';
import path from 'node:path';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  CLASS_NAME_IMPORTS,
  classNamesModule,
  DEFERRED_GRID_PARTS,
  GRID_MATERIAL_SLOTS,
  KEPT_GRID_PARTS,
  standInModule,
} from '../../../../scripts/deferred-grid-parts';
import {
  deferredGridPart,
  loadIntentParts,
} from '../../../../src/app/features/search-table/deferredGridPart';

const GRID_SLOTS_FILE = path.resolve('node_modules/@mui/x-data-grid/material/index.mjs');

function gridSlotImports(): string[] {
  const code = fs.readFileSync(GRID_SLOTS_FILE, 'utf8');
  return [...code.matchAll(/from\s+'(@mui\/material\/[^']+)'/g)].map((match) => match[1]);
}

describe('the DataGrid parts deferred at build time', () => {
  it('names the file whose imports it replaces', () => {
    expect(GRID_MATERIAL_SLOTS.test(GRID_SLOTS_FILE)).toBe(true);
  });

  it("lists every MUI import of the grid's default slots, deferred or kept, and nothing else", () => {
    const listed = [...Object.keys(DEFERRED_GRID_PARTS), ...KEPT_GRID_PARTS].sort();
    expect([...new Set(gridSlotImports())].sort()).toEqual(listed);
    for (const specifier of KEPT_GRID_PARTS) expect(DEFERRED_GRID_PARTS).not.toHaveProperty(specifier);
  });

  it('finds each named export the grid imports beside a deferred component in a module of its own', () => {
    const code = fs.readFileSync(GRID_SLOTS_FILE, 'utf8');
    for (const [specifier, part] of Object.entries(DEFERRED_GRID_PARTS)) {
      const imported = new RegExp(`import \\w+(?:, \\{ ([^}]*) \\})? from '${specifier}'`).exec(code);
      const named = imported?.[1]?.split(',').map((name) => name.trim()) ?? [];
      expect({ specifier, named }).toEqual({ specifier, named: [...(part.named ?? [])] });
      const index = path.resolve('node_modules', specifier, 'index.mjs');
      for (const name of named)
        expect(fs.existsSync(path.join(path.dirname(index), `${name}.mjs`))).toBe(true);
    }
  });

  it("sends a grid file's class-names-only import of a deferred component to the class names' module", () => {
    for (const [file, { specifier, module }] of Object.entries(CLASS_NAME_IMPORTS)) {
      expect(DEFERRED_GRID_PARTS).toHaveProperty([specifier]);
      const code = fs.readFileSync(path.resolve('node_modules/@mui/x-data-grid', file), 'utf8');
      // Only the class names: anything else imported from the component's index would need the component.
      const imports = [...code.matchAll(new RegExp(`import (.+) from '${specifier}'`, 'g'))].map((m) => m[1]);
      expect({ file, imports }).toEqual({ file, imports: [`{ ${module} }`] });
      expect(fs.existsSync(path.resolve('node_modules', specifier, `${module}.mjs`))).toBe(true);
    }
    expect(classNamesModule('inputBaseClasses', '/m/@mui/material/InputBase/inputBaseClasses.mjs')).toBe(
      'export { default as inputBaseClasses } from "/m/@mui/material/InputBase/inputBaseClasses.mjs";',
    );
  });

  it('writes a stand-in that imports the component on demand and its classes at once', () => {
    const code = standInModule(
      '@mui/material/TablePagination',
      '/m/@mui/material/TablePagination/index.mjs',
      { named: ['tablePaginationClasses'] },
      '/app/deferredGridPart.tsx',
    );
    expect(code).toBe(
      [
        'import { deferredGridPart } from "/app/deferredGridPart.tsx";',
        'export default deferredGridPart(() => import("@mui/material/TablePagination"), false, false);',
        'export { default as tablePaginationClasses } from "/m/@mui/material/TablePagination/tablePaginationClasses.mjs";',
      ].join('\n'),
    );
  });
});

describe('deferredGridPart', () => {
  function Badge({ children, label }: { children?: ReactNode; label: string }) {
    return (
      <span>
        {children}
        <span>{label}</span>
      </span>
    );
  }

  it('renders the component once downloaded, and its children meanwhile when asked', async () => {
    let resolve: (module: { default: typeof Badge }) => void = () => {};
    const StandIn = deferredGridPart(
      () => new Promise<{ default: typeof Badge }>((done) => (resolve = done)),
      true,
    );
    render(
      <StandIn label="2">
        <button type="button">Sort</button>
      </StandIn>,
    );
    expect(screen.getByRole('button', { name: 'Sort' })).toBeTruthy();
    expect(screen.queryByText('2')).toBeNull();
    resolve({ default: Badge });
    expect(await screen.findByText('2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sort' })).toBeTruthy();
  });

  it('a part for hover or an open menu downloads only once a pointer or the focus has entered the table', async () => {
    const load = jest.fn(async () => ({ default: Badge }));
    const StandIn = deferredGridPart(load, true, true);
    render(
      <StandIn label="hint">
        <button type="button">Column menu</button>
      </StandIn>,
    );
    expect(screen.getByRole('button', { name: 'Column menu' })).toBeTruthy();
    await new Promise((done) => setTimeout(done, 50));
    expect(load).not.toHaveBeenCalled();
    act(() => loadIntentParts());
    expect(await screen.findByText('hint')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Column menu' })).toBeTruthy();
    expect(load).toHaveBeenCalled();
  });

  it('renders nothing while downloading by default', async () => {
    const StandIn = deferredGridPart(async () => ({ default: Badge }));
    const { container } = render(<StandIn label="ready" />);
    expect(container.textContent).toBe('');
    expect(await screen.findByText('ready')).toBeTruthy();
  });
});
