// Component tests of the search table's dialogs (SPEC §2): Fields, Filters (add, edit, save,
// cancel, delete; saved only with field and operator), the single-filter prompt, Export (CSV paging past
// one page, formula-safe), Delete (one batch, per-row failures) and Bulk (a chosen Bot per row).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Filter } from '../../../../src/fhir/search';
import { BulkDialog } from '../../../../src/app/features/search-table/BulkDialog';
import { DeleteDialog } from '../../../../src/app/features/search-table/DeleteDialog';
import { ExportDialog } from '../../../../src/app/features/search-table/ExportDialog';
import { FieldsDialog } from '../../../../src/app/features/search-table/FieldsDialog';
import { FilterPromptDialog } from '../../../../src/app/features/search-table/FilterPromptDialog';
import { FiltersDialog } from '../../../../src/app/features/search-table/FiltersDialog';
import { FilterValueInput } from '../../../../src/app/features/search-table/FilterValueInput';
import { buildTableSchema, type TableSchema } from '../../../../src/app/features/search-table/tableSchema';
import { outcome } from '../../support/fakeApi';
import { renderScreen } from '../../support/renderScreen';

function element(path: string, types: string[]) {
  return { id: path, path, type: types.map((code) => ({ code })) };
}

const schema = buildTableSchema(
  'Observation',
  [
    {
      resourceType: 'StructureDefinition',
      name: 'Observation',
      kind: 'resource',
      snapshot: {
        element: [
          element('Observation', []),
          element('Observation.id', ['id']),
          element('Observation.status', ['code']),
          element('Observation.effective[x]', ['dateTime', 'Period']),
          element('Observation.value[x]', ['Quantity', 'string']),
        ],
      },
    },
  ] as never,
  [
    [
      { code: 'status', type: 'token', expression: 'Observation.status' },
      { code: 'date', type: 'date', expression: '(Observation.effective as dateTime)' },
      { code: 'value-quantity', type: 'quantity', expression: '(Observation.value as Quantity)' },
      { code: 'value-string', type: 'string', expression: '(Observation.value as string)' },
    ],
    [
      { code: '_id', type: 'token', expression: 'Resource.id' },
      { code: '_lastUpdated', type: 'date', expression: 'Resource.meta.lastUpdated' },
    ],
  ] as never,
) as TableSchema;

/** jsdom's Blob has no text(): read it as a browser's FileReader would. */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

async function choose(label: string, option: string, scope: HTMLElement = document.body) {
  fireEvent.mouseDown(await within(scope).findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('issue #9 table schema', () => {
  it('knows the fields, maps columns to parameters and refuses unknown types', () => {
    expect(schema.fields.map((field) => field.name)).toEqual([
      'id',
      'status',
      'effective',
      'value',
      '_lastUpdated',
    ]);
    expect(buildTableSchema('Nope', [], [])).toBeUndefined();
  });
});

describe('SPEC §2 Fields dialog', () => {
  it('shows the chosen fields, searches, clears and returns the choice in order on OK', async () => {
    const onOk = jest.fn();
    renderScreen(
      <FieldsDialog schema={schema} fields={['id', '_lastUpdated']} onOk={onOk} onClose={jest.fn()} />,
      [],
    );
    const dialog = await screen.findByRole('dialog', { name: 'Fields' });
    expect(within(dialog).getByRole('button', { name: 'ID' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear selection' }));
    expect(within(dialog).queryByRole('button', { name: 'ID' })).not.toBeInTheDocument();
    const input = within(dialog).getByRole('combobox', { name: 'Fields' });
    // SPEC §9 fields select width 550.
    expect(input.closest('.MuiAutocomplete-root')).toHaveStyle({ width: '550px' });
    fireEvent.change(input, { target: { value: 'eff' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Effective' }));
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'Stat' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Status' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith(['effective', 'status']);
  });
});

describe('SPEC §2, §4, §5 Filters dialog', () => {
  it('adds, edits, cancels and deletes rows; a row saves only with field and operator', async () => {
    const onOk = jest.fn();
    const initial: Filter[] = [{ code: 'status', operator: 'eq', value: 'final' }];
    renderScreen(<FiltersDialog schema={schema} filters={initial} onOk={onOk} onClose={jest.fn()} />, []);
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    // SPEC §9 Filters dialog width 900.
    expect(dialog).toHaveStyle({ width: '900px' });
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Field', 'Operation', 'Value', 'Actions']);
    expect(within(dialog).getByRole('cell', { name: 'final' })).toBeInTheDocument();
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await choose('Field', 'value-quantity', dialog);
    expect(add).toBeDisabled();
    await choose('Operation', 'greater than', dialog);
    expect(add).toBeEnabled();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Value' }), { target: { value: '5.4' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Unit' }), { target: { value: 'mg' } });
    fireEvent.click(add);
    // Shown as a person reads it, not as the URL writes it (5.4||mg).
    expect(within(dialog).getByRole('cell', { name: '5.4 mg' })).toBeInTheDocument();

    // Edit the first row, change it, cancel: unchanged. Edit again and save.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit status equals' }));
    const firstEdit = within(dialog).getByRole('button', { name: 'Save' }).closest('tr') as HTMLElement;
    await choose('Operation', 'not equals', firstEdit);
    fireEvent.click(within(firstEdit).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByRole('cell', { name: 'equals' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit status equals' }));
    const editRow = within(dialog).getByRole('button', { name: 'Save' }).closest('tr') as HTMLElement;
    await choose('Operation', 'not equals', editRow);
    fireEvent.change(within(editRow).getByRole('textbox', { name: 'Value' }), {
      target: { value: 'cancelled' },
    });
    fireEvent.click(within(editRow).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('cell', { name: 'cancelled' })).toBeInTheDocument();

    // Missing needs no value.
    await choose('Field', 'date', dialog);
    await choose('Operation', 'missing', dialog);
    expect(within(dialog).queryByLabelText('Value')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete value-quantity greater than' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith([
      { code: 'status', operator: 'not', value: 'cancelled' },
      { code: 'date', operator: 'missing', value: 'true' },
    ]);
  });

  it("'does not contain' is added, shown and edited under its parameter, sent as a _filter", async () => {
    const onOk = jest.fn();
    const initial: Filter[] = [{ code: '_filter', operator: 'eq', value: 'not (value-string co "high")' }];
    renderScreen(<FiltersDialog schema={schema} filters={initial} onOk={onOk} onClose={jest.fn()} />, []);
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    const row = within(dialog)
      .getByRole('button', { name: 'Edit value-string does not contain' })
      .closest('tr');
    expect(
      [...(row as HTMLElement).querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent),
    ).toEqual(['value-string', 'does not contain', 'high']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit value-string does not contain' }));
    const editRow = within(dialog).getByRole('button', { name: 'Save' }).closest('tr') as HTMLElement;
    const value = within(editRow).getByRole('textbox', { name: 'Value' });
    expect(value).toHaveValue('high');
    fireEvent.change(value, { target: { value: 'very high' } });
    fireEvent.click(within(editRow).getByRole('button', { name: 'Save' }));

    await choose('Field', 'value-string', dialog);
    await choose('Operation', 'does not contain', dialog);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Value' }), { target: { value: 'low' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith([
      { code: '_filter', operator: 'eq', value: 'not (value-string co "very high")' },
      { code: '_filter', operator: 'eq', value: 'not (value-string co "low")' },
    ]);
  });

  it('a quantity comparator becomes the operator and keeps the unit', async () => {
    const onOk = jest.fn();
    renderScreen(<FiltersDialog schema={schema} filters={[]} onOk={onOk} onClose={jest.fn()} />, []);
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    await choose('Field', 'value-quantity', dialog);
    await choose('Operation', 'equals', dialog);
    await choose('Comparator', '<=', dialog);
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Value' }), {
      target: { value: '-0.5' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Unit' }), { target: { value: 'kg' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith([{ code: 'value-quantity', operator: 'le', value: '-0.5||kg' }]);
  });

  it("the comparator is offered with 'equals' only; another operation sends itself, not a stale comparator", async () => {
    const onOk = jest.fn();
    const initial: Filter[] = [{ code: 'value-quantity', operator: 'lt', value: '5||kg' }];
    renderScreen(<FiltersDialog schema={schema} filters={initial} onOk={onOk} onClose={jest.fn()} />, []);
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    await choose('Field', 'value-quantity', dialog);
    await choose('Operation', 'equals', dialog);
    await choose('Comparator', '<', dialog);
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Value' }), { target: { value: '7' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Unit' }), { target: { value: 'kg' } });
    await choose('Operation', 'not equals', dialog);
    expect(within(dialog).queryByRole('combobox', { name: 'Comparator' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('spinbutton', { name: 'Value' })).toHaveValue(7);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    // An existing 'less than' row edits as 'less than' with its number and unit, no comparator.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit value-quantity less than' }));
    const editRow = within(dialog).getByRole('button', { name: 'Save' }).closest('tr') as HTMLElement;
    expect(within(editRow).queryByRole('combobox', { name: 'Comparator' })).not.toBeInTheDocument();
    expect(within(editRow).getByRole('spinbutton', { name: 'Value' })).toHaveValue(5);
    fireEvent.change(within(editRow).getByRole('spinbutton', { name: 'Value' }), { target: { value: '6' } });
    fireEvent.click(within(editRow).getByRole('button', { name: 'Save' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith([
      { code: 'value-quantity', operator: 'lt', value: '6||kg' },
      { code: 'value-quantity', operator: 'ne', value: '7||kg' },
    ]);
  });
});

describe('SPEC §5 value input by parameter type', () => {
  function renderInput(kind: Parameters<typeof FilterValueInput>[0]['kind'], value = '') {
    const onChange = jest.fn();
    renderScreen(<FilterValueInput kind={kind} value={value} onChange={onChange} />, []);
    return onChange;
  }

  it('a boolean is a choice of true and false', async () => {
    const onChange = renderInput('boolean');
    await choose('Value', 'true');
    expect(onChange).toHaveBeenCalledWith('true');
  });

  it('a date takes a day', () => {
    const onChange = renderInput('date');
    const input = screen.getByLabelText('Value');
    expect(input).toHaveAttribute('type', 'date');
    fireEvent.change(input, { target: { value: '2026-01-02' } });
    expect(onChange).toHaveBeenCalledWith('2026-01-02');
  });

  it('a date and time is entered in local time and sent as an ISO instant', () => {
    const instant = '2026-01-02T03:04:00.000Z';
    const onChange = renderInput('datetime', instant);
    const input = screen.getByLabelText('Value');
    expect(input).toHaveAttribute('type', 'datetime-local');
    const date = new Date(instant);
    const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    expect(input).toHaveValue(local);
    fireEvent.change(input, { target: { value: '2026-05-06T07:08' } });
    expect(onChange).toHaveBeenCalledWith(new Date('2026-05-06T07:08').toISOString());
  });

  it('a number takes any step, negatives and decimals', () => {
    const onChange = renderInput('number');
    const input = screen.getByRole('spinbutton', { name: 'Value' });
    expect(input).toHaveAttribute('step', 'any');
    fireEvent.change(input, { target: { value: '-0.25' } });
    expect(onChange).toHaveBeenCalledWith('-0.25');
  });

  it('a reference is Type/id, any other type text that takes system|code', () => {
    renderInput('reference');
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveAttribute('placeholder', 'Patient/123');
    const onChange = jest.fn();
    renderScreen(<FilterValueInput kind="text" value="" onChange={onChange} label="Code" />, []);
    const text = screen.getByRole('textbox', { name: 'Code' });
    fireEvent.change(text, { target: { value: 'http://loinc.org|8867-4' } });
    expect(onChange).toHaveBeenCalledWith('http://loinc.org|8867-4');
  });

  it('a quantity has comparators blank, <, <=, >=, > beside its number and unit', async () => {
    const onChange = renderInput('quantity', '5||kg');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Comparator' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent?.trim())).toEqual(['', '<', '<=', '>=', '>']);
    fireEvent.click(options[4]);
    expect(onChange).toHaveBeenCalledWith('gt5||kg');
  });
});

describe('SPEC §2 single-filter prompt', () => {
  it('OK is enabled by a value and hands it over; Cancel closes', async () => {
    const onOk = jest.fn();
    const onClose = jest.fn();
    renderScreen(
      <FilterPromptDialog title="Status: Equals..." kind="text" onOk={onOk} onClose={onClose} />,
      [],
    );
    const dialog = await screen.findByRole('dialog', { name: 'Status: Equals...' });
    const ok = within(dialog).getByRole('button', { name: 'OK' });
    expect(ok).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Value' }), {
      target: { value: 'http://hl7.org/fhir/observation-status|final' },
    });
    fireEvent.click(ok);
    expect(onOk).toHaveBeenCalledWith('http://hl7.org/fhir/observation-status|final');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });

  it("a quantity prompt for 'Does not equal...' has no comparator; 'Equals...' has one", async () => {
    const onOk = jest.fn();
    const { unmount } = renderScreen(
      <FilterPromptDialog
        title="Value: Does not equal..."
        kind="quantity"
        showComparator={false}
        onOk={onOk}
        onClose={jest.fn()}
      />,
      [],
    );
    const dialog = await screen.findByRole('dialog', { name: 'Value: Does not equal...' });
    expect(within(dialog).queryByRole('combobox', { name: 'Comparator' })).not.toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Value' }), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Unit' }), { target: { value: 'kg' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith('5||kg');
    unmount();
    renderScreen(
      <FilterPromptDialog title="Value: Equals..." kind="quantity" onOk={jest.fn()} onClose={jest.fn()} />,
      [],
    );
    const equals = await screen.findByRole('dialog', { name: 'Value: Equals...' });
    expect(within(equals).getByRole('combobox', { name: 'Comparator' })).toBeInTheDocument();
  });
});

describe('SPEC §2, §9 Export dialog', () => {
  let blobs: Blob[];
  beforeEach(() => {
    blobs = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:test';
    });
    URL.revokeObjectURL = jest.fn();
  });

  function page(from: number, count: number, status = 'final') {
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: Array.from({ length: count }, (_, i) => ({
        resource: { resourceType: 'Observation', id: `o${from + i}`, status: i === 0 ? '=cmd()' : status },
      })),
    };
  }

  it('pages through the server past one page and writes a formula-safe CSV', async () => {
    const onClose = jest.fn();
    const { api } = renderScreen(
      <ExportDialog
        request={{
          resourceType: 'Observation',
          filters: [{ code: 'status', operator: 'eq', value: 'final' }],
          offset: 40,
          count: 20,
        }}
        fields={['id', 'status']}
        onClose={onClose}
      />,
      [],
    );
    api.once(
      'GET fhir/R4/Observation?_count=100&_fields=id,status&_offset=0&_total=none&status=final',
      200,
      page(0, 100),
    );
    api.once(
      'GET fhir/R4/Observation?_count=100&_fields=id,status&_offset=100&_total=none&status=final',
      200,
      page(100, 5),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Export' });
    expect(within(dialog).getByText('Limited to 1000 records')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export as CSV' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const text = (await blobText(blobs[0])).replace(/^\ufeff/, '');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID,Status');
    expect(lines).toHaveLength(106);
    expect(lines[1]).toBe("o0,'=cmd()");
    expect(lines[2]).toBe('o1,final');
    // The second page's first row is neutralised too; its last row is the last match.
    expect(lines[101]).toBe("o100,'=cmd()");
    expect(lines[105]).toBe('o104,final');
  });

  it('exports whole resources as a transaction Bundle; a failure is shown in the dialog', async () => {
    const onClose = jest.fn();
    const { api } = renderScreen(
      <ExportDialog request={{ resourceType: 'Observation' }} fields={['id']} onClose={onClose} />,
      [],
    );
    api.once('GET fhir/R4/Observation?_count=100&_offset=0&_total=none', 400, outcome('Bad search'));
    api.once('GET fhir/R4/Observation?_count=100&_offset=0&_total=none', 200, page(0, 2));
    const dialog = await screen.findByRole('dialog', { name: 'Export' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export as Transaction Bundle' }));
    expect(await within(dialog).findByText('Bad search')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export as Transaction Bundle' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const bundle = JSON.parse(await blobText(blobs[0]));
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'transaction' });
    expect(bundle.entry).toHaveLength(2);
    expect(bundle.entry[0].request).toEqual({ method: 'POST', url: 'Observation' });
    expect(bundle.entry[0].fullUrl).toMatch(/^urn:uuid:/);
  });
});

describe('SPEC §2 Delete dialog', () => {
  it('confirms, deletes in one batch and reports each failure', async () => {
    const onDeleted = jest.fn();
    const { api } = renderScreen(
      <DeleteDialog resourceType="Observation" ids={['a', 'b']} onClose={jest.fn()} onDeleted={onDeleted} />,
      [],
    );
    api.once('POST fhir/R4/', 200, {
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: [
        { response: { status: '200 OK' } },
        { response: { status: '403 Forbidden', outcome: outcome('Forbidden') } },
      ],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/Delete 2 selected Observation resources\?/)).toBeInTheDocument();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    expect(await within(dialog).findByText('1 of 2 deleted. 1 failed.')).toBeInTheDocument();
    expect(within(dialog).getByText('Observation/b: Forbidden')).toBeInTheDocument();
    expect(onDeleted).toHaveBeenCalled();
    expect(api.bodiesOf('POST fhir/R4/')).toEqual([
      {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'DELETE', url: 'Observation/a' } },
          { request: { method: 'DELETE', url: 'Observation/b' } },
        ],
      },
    ]);
  });
});

describe('SPEC §2 Bulk dialog', () => {
  it('runs the chosen Bot on each selected resource and reports the results', async () => {
    const { api } = renderScreen(
      <BulkDialog resourceType="Observation" ids={['a', 'b']} onClose={jest.fn()} />,
      [],
    );
    api.always('GET fhir/R4/Bot?_count=100&_sort=name', 200, {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [{ resource: { resourceType: 'Bot', id: 'bot1', name: 'Flag results' } }],
    });
    api.once('GET fhir/R4/Observation/a', 200, { resourceType: 'Observation', id: 'a', status: 'final' });
    api.once('GET fhir/R4/Observation/b', 200, { resourceType: 'Observation', id: 'b', status: 'final' });
    api.once('POST fhir/R4/Bot/bot1/$execute', 200, { ok: true });
    api.once('POST fhir/R4/Bot/bot1/$execute', 400, outcome('Bot failed'));
    const dialog = await screen.findByRole('dialog', { name: 'Bulk' });
    const run = within(dialog).getByRole('button', { name: 'Run' });
    expect(run).toBeDisabled();
    await choose('Bot', 'Flag results', dialog);
    await act(async () => fireEvent.click(run));
    expect(await within(dialog).findByText('1 of 2 ran. 1 failed.')).toBeInTheDocument();
    expect(within(dialog).getByText('Observation/b: Bot failed')).toBeInTheDocument();
    expect(api.bodiesOf('POST fhir/R4/Bot/bot1/$execute')[0]).toEqual({
      resourceType: 'Observation',
      id: 'a',
      status: 'final',
    });
  });
});
