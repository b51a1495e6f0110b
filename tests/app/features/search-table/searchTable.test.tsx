// Component tests of the whole table (SPEC §2, §3, §4, §8): the schema through the GraphQL
// operations and rows through the typed ResourceList operation (Apollo mocks answer only the exact
// query string each request should send, modifiers, ranges and _filter included): rows as links, the range,
// 'No results', an error inside the table (outcome text above the raw JSON) with the toolbar still
// usable, a column-menu filter through the prompt (offset reset, saved name cleared), selection
// cleared by a new search, the chosen fields saved to the key-value store, and an unknown type.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import SearchTablePage from '../../../../src/app/features/search-table/SearchTablePage';
import { effectiveRequest } from '../../../../src/app/features/search-table/searchState';
import type { SearchRequest } from '../../../../src/fhir/search';
import { resourceListVariables } from '../../../../src/app/features/search-table/resourceListVariables';
import { Operator } from '../../../../src/fhir/search';
import {
  ResourceListDocument,
  SearchParameterListDocument,
  StructureDefinitionFieldsDocument,
} from '../../../../src/graphql';
import { outcome } from '../../support/fakeApi';
import { notFound } from '../../../../src/fhir/outcomes';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

function element(path: string, types: string[]) {
  return { path, type: types.map((code) => ({ code })) };
}

function param(code: string, type: string, expression: string) {
  return {
    __typename: 'SearchParameter',
    resourceType: 'SearchParameter',
    id: `p-${code}`,
    base: ['Observation'],
    code,
    name: code,
    type,
    expression,
    target: null,
  };
}

function schemaMocks(name = 'Observation', known = true): ScreenMock[] {
  return [
    {
      request: { query: StructureDefinitionFieldsDocument, variables: { name } },
      result: {
        data: {
          StructureDefinitionList: known
            ? [
                {
                  __typename: 'StructureDefinition',
                  resourceType: 'StructureDefinition',
                  id: name,
                  name,
                  kind: 'resource',
                  snapshot: {
                    element: [
                      element(name, []),
                      element(`${name}.id`, ['id']),
                      element(`${name}.status`, ['code']),
                      element(`${name}.value[x]`, ['string']),
                    ],
                  },
                },
              ]
            : [],
        },
      },
    },
    {
      request: { query: SearchParameterListDocument, variables: { base: name } },
      result: {
        data: {
          SearchParameterList: [
            param('status', 'token', `${name}.status`),
            param('value-string', 'string', `(${name}.value as string)`),
          ],
        },
      },
    },
    {
      request: { query: SearchParameterListDocument, variables: { base: 'Resource' } },
      result: {
        data: {
          SearchParameterList: [
            param('_id', 'token', 'Resource.id'),
            param('_lastUpdated', 'date', 'Resource.meta.lastUpdated'),
          ],
        },
      },
    },
  ];
}

/** The ResourceList operation as the table sends it for a request (its defaults filled in). */
function rowsRequest(request: Omit<SearchRequest, 'resourceType'>) {
  const variables = resourceListVariables(effectiveRequest({ resourceType: 'Observation', ...request }));
  return { query: ResourceListDocument, variables };
}

/** The ResourceList answer for a request: rows with id and meta, and the chosen fields' values. */
function rowsMock(
  request: Omit<SearchRequest, 'resourceType'>,
  ids: string[],
  { total = ids.length as number | null } = {},
): ScreenMock {
  // The fields the table asks for (the type's defaults when the request names none).
  const fields = effectiveRequest({ resourceType: 'Observation', ...request }).fields ?? [];
  return {
    request: rowsRequest(request),
    result: {
      data: {
        ResourceSearch: {
          total,
          offset: request.offset ?? 0,
          pageSize: 20,
          resources: ids.map((id) => ({
            resourceType: 'Observation',
            id,
            meta: { versionId: '1', lastUpdated: '2026-01-02T03:04:05Z' },
            ...(fields.includes('status') ? { status: 'final' } : {}),
            ...(fields.includes('value') ? { valueString: 'high' } : {}),
          })),
        },
      },
    },
  };
}

/** Tests about something other than the default columns name the id and _lastUpdated columns. */
const ID_COLUMNS = ['id', '_lastUpdated'];
const ID_URL = '/Observation?_fields=id,_lastUpdated';
/** Observation's default columns as headers (labels from the mocked schema, else the field name). */
// Labels come from the field names, so they read the same before and after the schema answers.
const OBSERVATION_DEFAULT_HEADERS = ['Subject', 'Code', 'Value', 'Effective', 'Status', 'Last Updated'];

/** A toolbar button once it can be used: Fields and Filters wait for the schema (rows may come first). */
async function enabledButton(name: string): Promise<HTMLElement> {
  const button = screen.getByRole('button', { name });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

function headers(): string[] {
  return screen
    .getAllByRole('columnheader')
    .map((header) => header.textContent ?? '')
    .filter((text) => text !== '');
}

function renderTable(path: string, mocks = schemaMocks()) {
  return renderScreen(<SearchTablePage />, mocks, { path, pattern: '/:resourceType' });
}

describe('issue #9 search table (SPEC §2)', () => {
  it('shows rows as links to the resource, the range, and pages forward', async () => {
    const { router } = renderTable(ID_URL, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS }, ['a', 'b'], { total: 45 }),
      rowsMock({ fields: ID_COLUMNS, offset: 20 }, ['c'], { total: 45 }),
    ]);
    // The first render of the file pays for DataGrid's first import: a busy machine needs longer.
    const link = await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    expect(link).toHaveAttribute('href', '/Observation/a');
    expect(screen.getByText('1-2 of 45')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_offset=20'));
    expect(await screen.findByRole('link', { name: 'c' })).toBeInTheDocument();
  });

  it("while rows load the grid shows its loading bars, never a flash of 'No results'", async () => {
    const slow = { ...rowsMock({ fields: ID_COLUMNS }, ['a']), delay: 1500 };
    const { container } = renderTable(ID_URL, [...schemaMocks(), slow]);
    await screen.findByRole('toolbar', { name: 'Observation table actions' });
    const seen = { skeleton: false, noResults: false };
    const look = () => {
      seen.skeleton ||= container.querySelector('[role="grid"] .MuiSkeleton-root') !== null;
      seen.noResults ||= (container.textContent ?? '').includes('No results');
    };
    look();
    const observer = new MutationObserver(look);
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    await screen.findByRole('link', { name: 'a' }, { timeout: 10_000 });
    observer.disconnect();
    expect(seen).toEqual({ skeleton: true, noResults: false });
  });

  it("an empty search shows 'No results' and no pager", async () => {
    renderTable('/Observation', [...schemaMocks(), rowsMock({}, [])]);
    expect(await screen.findByText('No results')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });

  it('SPEC §8 a failed search shows the outcome text above the raw JSON; the toolbar stays usable', async () => {
    renderTable('/Observation', [
      ...schemaMocks(),
      {
        request: rowsRequest({}),
        result: {
          data: null,
          errors: [
            {
              message: 'Bad search',
              path: ['ResourceSearch'],
              extensions: { outcome: outcome("Unknown search parameter 'bogus'") },
            },
          ],
        },
      },
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Unknown search parameter 'bogus'");
    const details = screen.getByLabelText('Error details');
    expect(details.textContent).toContain('"resourceType": "OperationOutcome"');
    // The readable text comes first, the raw JSON after it.
    expect(alert.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(await screen.findByRole('dialog', { name: 'Filters' })).toBeInTheDocument();
  });

  it("a refused search (403, the server's OperationOutcome) shows the server's message as an alert, never 'No results'", async () => {
    const forbidden = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'forbidden',
          details: { text: 'Forbidden: Observation is not accessible' },
        },
      ],
    };
    renderTable('/Observation', [
      ...schemaMocks(),
      {
        request: rowsRequest({}),
        result: {
          data: null,
          errors: [{ message: 'Forbidden', path: ['ResourceSearch'], extensions: { outcome: forbidden } }],
        },
      },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden: Observation is not accessible');
    expect(screen.queryByText('No results')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('a malformed URL is an error inside the table too', async () => {
    renderTable('/Observation?_count=abc');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/_count/);
    expect(screen.getByRole('button', { name: 'Fields' })).toBeEnabled();
  });

  it('SPEC §4 a column-menu filter resets the offset, clears the saved name and the selection', async () => {
    const { router } = renderTable(`${ID_URL}&_offset=20&_savedSearch=Mine`, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS, offset: 20 }, ['a', 'b'], { total: 22 }),
      // The modifier goes in the operation's query string as the URL has it.
      rowsMock({ fields: ID_COLUMNS, filters: [{ code: '_id', operator: Operator.NOT, value: 'x' }] }, ['c']),
    ]);
    await screen.findByRole('link', { name: 'a' });
    fireEvent.click(screen.getAllByRole('checkbox', { name: 'Select row' })[0]);
    expect(screen.getByRole('button', { name: 'Delete...' })).toBeEnabled();

    // The ID column's menu (its parameter is _id, a token).
    fireEvent.click(screen.getByLabelText('ID column menu'));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Sort A to Z',
      'Sort Z to A',
      'Equals...',
      'Does not equal...',
      'Missing',
      'Not missing',
      'Clear filters',
    ]);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Does not equal...' }));
    const prompt = await screen.findByRole('dialog', { name: 'ID: Does not equal...' });
    fireEvent.change(within(prompt).getByRole('textbox', { name: 'Value' }), { target: { value: 'x' } });
    await act(async () =>
      fireEvent.keyDown(within(prompt).getByRole('textbox', { name: 'Value' }), { key: 'Enter' }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_id:not=x'));
    // The new search starts with nothing selected.
    expect(await screen.findByRole('link', { name: 'c' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete...' })).toBeDisabled();
  });

  it('the chosen fields are saved to the key-value store and drive the search', async () => {
    const { api, router } = renderTable('/Observation', [
      ...schemaMocks(),
      rowsMock({}, ['a']),
      rowsMock({ fields: ['status'] }, ['a']),
    ]);
    api.always('GET keyvalue/v1/bloom-search-tables', 404, notFound);
    api.always('PUT keyvalue/v1/bloom-search-tables', 200, '');
    // The bare URL shows Observation's default columns: the row's value cell links to it.
    expect(await screen.findByRole('link', { name: 'high' })).toHaveAttribute('href', '/Observation/a');
    fireEvent.click(await enabledButton('Fields'));
    const dialog = await screen.findByRole('dialog', { name: 'Fields' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear selection' }));
    const input = within(dialog).getByRole('combobox', { name: 'Fields' });
    fireEvent.change(input, { target: { value: 'Stat' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Status' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=status'));
    await waitFor(() =>
      expect(api.bodiesOf('PUT keyvalue/v1/bloom-search-tables')).toEqual([
        { tables: { Observation: { fields: ['status'], used: expect.any(Number) } } },
      ]),
    );
    expect(await screen.findByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
  });

  it('a stored field choice applies when the URL names none', async () => {
    const { api } = renderTable('/Observation', [
      ...schemaMocks(),
      rowsMock({ fields: ['id', 'status'] }, ['a']),
    ]);
    api.once(
      'GET keyvalue/v1/bloom-search-tables',
      200,
      JSON.stringify({ tables: { Observation: { fields: ['id', 'status'], used: 1 } } }),
    );
    expect(await screen.findByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'final' })).toBeInTheDocument();
  });

  it('an unset layout key is one request and the defaults: no key of earlier releases is asked for, nothing written', async () => {
    const { api } = renderTable('/Observation', [...schemaMocks(), rowsMock({}, ['a'])]);
    api.once('GET keyvalue/v1/bloom-search-tables', 204, '');
    expect(await screen.findByRole('link', { name: 'high' })).toHaveAttribute('href', '/Observation/a');
    expect(headers()).toEqual(OBSERVATION_DEFAULT_HEADERS);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(
      api.sent.filter((r) => r.path.startsWith('keyvalue/')).map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET keyvalue/v1/bloom-search-tables']);
  });

  it('issue #20: a stored value that is not the expected JSON leaves the defaults, and the next save overwrites it', async () => {
    const { api, router } = renderTable('/Observation', [
      ...schemaMocks(),
      rowsMock({}, ['a']),
      rowsMock({ fields: ['status'] }, ['a']),
    ]);
    api.always('GET keyvalue/v1/bloom-search-tables', 200, '{"tables":{"Observation":"status"');
    api.always('PUT keyvalue/v1/bloom-search-tables', 200, '');
    expect(await screen.findByRole('link', { name: 'high' })).toHaveAttribute('href', '/Observation/a');
    expect(headers()).toEqual(OBSERVATION_DEFAULT_HEADERS);
    fireEvent.click(await enabledButton('Fields'));
    const dialog = await screen.findByRole('dialog', { name: 'Fields' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear selection' }));
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Fields' }), { target: { value: 'Stat' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Status' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=status'));
    await waitFor(() =>
      expect(api.bodiesOf('PUT keyvalue/v1/bloom-search-tables')).toEqual([
        { tables: { Observation: { fields: ['status'], used: expect.any(Number) } } },
      ]),
    );
  });

  it('the toolbar adds a later sort rule, flips it with Enter and drops it with Delete (keyboard)', async () => {
    const byId = { code: '_id' };
    const { router } = renderTable(`${ID_URL}&_sort=_id`, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS, sortRules: [byId] }, ['a']),
      rowsMock({ fields: ID_COLUMNS, sortRules: [byId, { code: 'status' }] }, ['a']),
      rowsMock({ fields: ID_COLUMNS, sortRules: [byId, { code: 'status', descending: true }] }, ['a']),
      rowsMock({ fields: ID_COLUMNS, sortRules: [byId] }, ['a']),
    ]);
    await screen.findByRole('link', { name: 'a' });
    // Sorting comes with the schema (the rows may show before it).
    await enabledButton('Fields');
    // The header shows the first rule.
    expect(screen.getByRole('columnheader', { name: /ID/ })).toHaveAttribute('aria-sort', 'ascending');
    const add = screen.getByRole('button', { name: 'Then by...' });
    act(() => add.focus());
    fireEvent.click(add);
    const menu = await screen.findByRole('menu', { name: 'Then by...' });
    // Every sortable parameter but the one already sorting.
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['_lastUpdated', 'status', 'value-string']);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'status' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_sort=_id,status'),
    );

    const chip = await screen.findByRole('button', { name: 'then status A to Z' });
    fireEvent.keyDown(chip, { key: 'Enter' });
    fireEvent.keyUp(chip, { key: 'Enter' });
    await waitFor(() =>
      expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_sort=_id,-status'),
    );
    const flipped = await screen.findByRole('button', { name: 'then status Z to A' });
    fireEvent.keyDown(flipped, { key: 'Delete' });
    fireEvent.keyUp(flipped, { key: 'Delete' });
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_sort=_id'));
    expect(screen.queryByRole('button', { name: /^then / })).not.toBeInTheDocument();
  });

  it("a string column's 'Does not contain...' puts a _filter in the URL and sends it in the operation", async () => {
    const notHi = { code: '_filter', operator: Operator.EQUALS, value: 'not (value-string co "hi")' };
    const { router } = renderTable('/Observation?_fields=id,value', [
      ...schemaMocks(),
      rowsMock({ fields: ['id', 'value'] }, ['a']),
      rowsMock({ fields: ['id', 'value'], filters: [notHi] }, ['b']),
    ]);
    expect(await screen.findByRole('link', { name: 'high' })).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Value column menu'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Contains...' })).toBeInTheDocument();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Does not contain...' }));
    const prompt = await screen.findByRole('dialog', { name: 'Value: Does not contain...' });
    const input = within(prompt).getByRole('textbox', { name: 'Value' });
    fireEvent.change(input, { target: { value: 'hi' } });
    await act(async () => fireEvent.keyDown(input, { key: 'Enter' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?_fields=id,value&_filter=not%20(value-string%20co%20%22hi%22)',
      ),
    );
    // Only the operation with exactly that query string is answered.
    expect(await screen.findByRole('link', { name: 'b' })).toBeInTheDocument();
    expect(rowsRequest({ fields: ['id', 'value'], filters: [notHi] }).variables.search).toBe(
      '_count=20&_fields=id,value&_filter=not%20(value-string%20co%20%22hi%22)&_offset=0&_total=accurate',
    );
  });

  it("the heading is the app's page heading (h1, the type's name) and the page title names the type", async () => {
    renderTable(ID_URL, [...schemaMocks(), rowsMock({ fields: ID_COLUMNS }, ['a'])]);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Observation' });
    expect(heading).toHaveClass('MuiTypography-h1');
    await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(document.title).toBe('Observation · Bloom');
  });

  it('a name the server knows no resource type for shows the not-found page', async () => {
    renderTable('/Nope', schemaMocks('Nope', false));
    expect(
      await screen.findByRole('heading', { level: 1, name: "We couldn't find that page" }),
    ).toBeInTheDocument();
  });
});

describe('issue #9 search table toolbar, selection and caches (SPEC §2, §7)', () => {
  it("an estimated total reads '~total' (the operation asks _total=estimate)", async () => {
    renderTable(`${ID_URL}&_total=estimate`, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS, total: 'estimate' }, ['a', 'b'], { total: 4500 }),
    ]);
    expect(await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('1-2 of ~4,500')).toBeInTheDocument();
  });

  it('select-all checks every row of the page, and Delete... offers them all', async () => {
    renderTable(ID_URL, [...schemaMocks(), rowsMock({ fields: ID_COLUMNS }, ['a', 'b', 'c'])]);
    await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    expect(screen.getByRole('button', { name: 'Delete...' })).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('checkbox', { name: /Unselect row|Select row/ })
          .map((box) => (box as HTMLInputElement).checked),
      ).toEqual([true, true, true]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete...' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/Delete 3 selected Observation resources\?/)).toBeInTheDocument();
  });

  it('refresh asks the server again and shows what it answers now', async () => {
    renderTable(ID_URL, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS }, ['a']),
      rowsMock({ fields: ID_COLUMNS }, ['a', 'b']),
    ]);
    await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    expect(screen.queryByRole('link', { name: 'b' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('link', { name: 'b' })).toBeInTheDocument();
    expect(screen.getByText('1-2 of 2')).toBeInTheDocument();
  });

  it('New... opens the form for a new resource of the type', async () => {
    const { router } = renderTable('/Observation', [...schemaMocks(), rowsMock({}, ['a'])]);
    fireEvent.click(await screen.findByRole('button', { name: 'New...' }, { timeout: 15_000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/Observation/new'));
  });

  it('the schema (StructureDefinitionList, SearchParameterList) is asked once: a revisit reads the cache', async () => {
    // Each schema answer is mocked once: asking again would find none and fail the table.
    const { router } = renderTable(ID_URL, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS }, ['a']),
      rowsMock({ fields: ID_COLUMNS }, ['a', 'b']),
    ]);
    await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    await act(() => router.navigate('/Elsewhere/1'));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    await act(() => router.navigate(ID_URL));
    expect(await screen.findByRole('link', { name: 'b' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('the column menu works from the keyboard: Ctrl+Enter opens it, arrows move, Enter chooses', async () => {
    const { router } = renderTable(ID_URL, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS }, ['a', 'b']),
      rowsMock({ fields: ID_COLUMNS, sortRules: [{ code: '_id', descending: true }] }, ['b', 'a']),
    ]);
    await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 });
    const header = screen.getByRole('columnheader', { name: /^ID/ });
    act(() => header.focus());
    fireEvent.keyDown(header, { key: 'Enter', ctrlKey: true });
    const menu = await screen.findByRole('menu');
    // The menu list takes the focus; arrows move through its items.
    await waitFor(() => expect(document.activeElement).toBe(menu));
    const press = (key: string) => fireEvent.keyDown(document.activeElement as HTMLElement, { key });
    press('ArrowDown');
    expect(document.activeElement).toHaveTextContent('Sort A to Z');
    press('ArrowDown');
    expect(document.activeElement).toHaveTextContent('Sort Z to A');
    expect(menu).toContainElement(document.activeElement as HTMLElement);
    press('Enter');
    await waitFor(() => expect(router.state.location.search).toBe('?_fields=id,_lastUpdated&_sort=-_id'));
    expect(screen.getByRole('columnheader', { name: /^ID/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('a range (two conditions on one parameter) is sent as both conditions in the operation', async () => {
    const range = [
      { code: '_lastUpdated', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
      { code: '_lastUpdated', operator: Operator.LESS_THAN, value: '2026-02-01' },
    ];
    renderTable(`${ID_URL}&_lastUpdated=ge2026-01-01&_lastUpdated=lt2026-02-01`, [
      ...schemaMocks(),
      rowsMock({ fields: ID_COLUMNS, filters: range }, ['a']),
    ]);
    expect(rowsRequest({ fields: ID_COLUMNS, filters: range }).variables.search).toBe(
      '_count=20&_fields=id,_lastUpdated&_lastUpdated=ge2026-01-01&_lastUpdated=lt2026-02-01&_offset=0&_total=accurate',
    );
    expect(await screen.findByRole('link', { name: 'a' }, { timeout: 15_000 })).toBeInTheDocument();
  });
});
