// Generic resource pages through the real routes and platform client, with a fake API: the
// fields laid out by the type's definition (labels, nested backbone elements, arrays, data types
// readable, references as links by SPEC §2 Links), the JSON, the history, the readable 404/403 panel,
// an unknown type; and /:type/new with the server's issues under their fields (SPEC §5, §8).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resourceTitle } from '../../../../src/app/features/resource/ResourcePage';
import { renderApp } from '../../support/renderApp';
import { installFakeApi, maria, outcome, type FakeApi } from '../../support/fakeApi';
import { answerGenderCodes, answerSchema, drChen, rosa, storeLoginOf } from '../../support/resourceFixtures';

let api: FakeApi;

beforeEach(() => {
  api = installFakeApi();
  api.always('GET keyvalue/v1/bloom-share-context', 404, outcome('Not found'));
  api.always('GET keyvalue/v1/bloom.share-context', 400, outcome('Invalid key'));
});

function definitionOf(label: string): HTMLElement {
  const term = screen.getAllByText(label, { selector: 'dt' })[0];
  return term.nextElementSibling as HTMLElement;
}

describe('issue #9 /:resourceType/:id', () => {
  it('SPEC §2: lays the fields out by the definition, readably, with references as links', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api);
    api.always('GET fhir/R4/Patient/rosa-1', 200, rosa);
    renderApp('/Patient/rosa-1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Rosa Delgado' })).toBeInTheDocument();
    expect(definitionOf('Active')).toHaveTextContent(/^Yes$/);
    expect(definitionOf('Gender')).toHaveTextContent(/^female$/);
    expect(definitionOf('Birth Date').querySelector('time')).toHaveAttribute('datetime', '1990-03-14');
    // A choice element under its declared label; false is shown, not dropped.
    expect(definitionOf('Deceased')).toHaveTextContent(/^No$/);
    expect(definitionOf('Address')).toHaveTextContent('1 Elm St, Springfield, IL 62704');
    expect(definitionOf('Name')).toHaveTextContent('Rosa Delgado');
    // The backbone element as a nested list with its own labels; id/meta are not fields.
    const contact = definitionOf('Contact');
    expect(within(contact).getByText('Relationship', { selector: 'dt' })).toBeInTheDocument();
    expect(within(contact).getByText('Partner')).toBeInTheDocument();
    expect(within(contact).getByText('Luis Delgado')).toBeInTheDocument();
    expect(within(contact).getByText(/^From /)).toBeInTheDocument();
    expect(screen.queryByText('Meta', { selector: 'dt' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Dr. Lily Chen' })).toHaveAttribute(
      'href',
      '/Practitioner/chen-1',
    );
    // The definition was asked for by name, through the schema load's typed operations (SPEC §7).
    const schemaRequests = api.bodiesOf('POST fhir/R4/$graphql') as Array<{
      operationName?: string;
      variables?: Record<string, unknown>;
    }>;
    expect(schemaRequests.map(({ operationName, variables }) => ({ operationName, variables }))).toEqual(
      expect.arrayContaining([
        { operationName: 'StructureDefinitionList', variables: { name: 'Patient' } },
        { operationName: 'SearchParameterList', variables: { base: 'Patient', count: 100 } },
      ]),
    );
  });

  it('shows the JSON and the history with dates, changes, authors and version links, paging to older ones', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api);
    api.always('GET fhir/R4/Patient/rosa-1', 200, rosa);
    const chen = { reference: 'Practitioner/chen-1', display: 'Dr. Lily Chen' };
    api.once('GET fhir/R4/Patient/rosa-1/_history?_count=50&_offset=0', 200, {
      resourceType: 'Bundle',
      type: 'history',
      link: [
        {
          relation: 'next',
          url: 'http://api.test:8103/fhir/R4/Patient/rosa-1/_history?_count=50&_offset=50',
        },
      ],
      entry: [
        {
          request: { method: 'DELETE', url: 'Patient/rosa-1' },
          response: { status: '200', etag: 'W/"v3"', lastModified: '2026-03-03T08:00:00Z' },
        },
        {
          request: { method: 'PUT', url: 'Patient/rosa-1' },
          resource: { ...rosa, meta: { ...rosa.meta, author: chen } },
        },
      ],
    });
    api.once('GET fhir/R4/Patient/rosa-1/_history?_count=50&_offset=2', 200, {
      resourceType: 'Bundle',
      type: 'history',
      entry: [
        {
          request: { method: 'POST', url: 'Patient' },
          resource: { ...rosa, meta: { versionId: 'v1', lastUpdated: '2026-03-01T09:00:00Z', author: chen } },
        },
      ],
    });
    renderApp('/Patient/rosa-1');
    fireEvent.click(await screen.findByRole('tab', { name: 'JSON' }));
    const jsonPanel = screen.getByRole('tabpanel');
    expect(JSON.parse(within(jsonPanel).getByLabelText('JSON').textContent ?? '')).toEqual(rosa);

    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Versions' });
    let rows = within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
    expect(rows.map((row) => row.cells[1].textContent)).toEqual(['Deleted', 'Updated']);
    // A deletion has a date but nothing to view.
    expect(rows[0].querySelector('time')).toHaveAttribute('datetime', '2026-03-03T08:00:00Z');
    expect(within(rows[0]).queryByRole('link')).toBeNull();
    const view = within(rows[1]).getAllByRole('link')[0];
    expect(view).toHaveAttribute('href', '/Patient/rosa-1/_history/v2');
    expect(view.querySelector('time')).toHaveAttribute('datetime', '2026-03-02T10:00:00Z');
    expect(within(rows[1]).getByRole('link', { name: 'Dr. Lily Chen' })).toHaveAttribute(
      'href',
      '/Practitioner/chen-1',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Load older versions' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    rows = within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
    expect(rows[2].cells[1]).toHaveTextContent('Created');
    expect(within(rows[2]).getAllByRole('link')[0]).toHaveAttribute('href', '/Patient/rosa-1/_history/v1');
    // No next link on the last page: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load older versions' })).toBeNull();
  });

  it('opens an earlier version from GET {type}/{id}/_history/{vid} with a way back', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api);
    api.always('GET fhir/R4/Patient/rosa-1/_history/v1', 200, { ...rosa, gender: 'other' });
    renderApp('/Patient/rosa-1/_history/v1');
    expect(await screen.findByText(/You are viewing an earlier version/)).toBeInTheDocument();
    expect(definitionOf('Gender')).toHaveTextContent('other');
    expect(screen.getByRole('link', { name: 'Show the current version' })).toHaveAttribute(
      'href',
      '/Patient/rosa-1',
    );
  });

  it("SPEC §6: a patient opening another's resource gets the server's 404 as a readable panel", async () => {
    storeLoginOf(api, maria);
    answerSchema(api);
    api.always('GET fhir/R4/Patient/aisha-1', 404, {
      resourceType: 'OperationOutcome',
      id: 'not-found',
      issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
    });
    renderApp('/Patient/aisha-1');
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Patient/aisha-1 does not exist, or your account may not see it.');
    expect(panel).toHaveTextContent('Server: Not found');
    // A patient is offered no context sharing, and no key-value read was made for it.
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('a 403 reads as Access denied with the server text', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api);
    api.always('GET fhir/R4/Patient/rosa-1', 403, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
    });
    renderApp('/Patient/rosa-1');
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Access denied' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Server: Forbidden');
  });

  it('an unknown resource type (no definition, or not capitalised) shows the Not found panel', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api, null);
    const { router } = renderApp('/Nonsense/1');
    expect(await screen.findByText('The resource type "Nonsense" does not exist here.')).toBeInTheDocument();
    expect(api.sent.some((r) => r.path.startsWith('fhir/R4/Nonsense'))).toBe(false);
    await router.navigate('/lowercase/1');
    expect(await screen.findByText('The resource type "lowercase" does not exist here.')).toBeInTheDocument();
    // A name that cannot be a type is not asked for.
    const asked = (
      api.bodiesOf('POST fhir/R4/$graphql') as Array<{ variables?: Record<string, unknown> }>
    ).map(({ variables }) => variables?.name ?? variables?.base);
    expect(asked).toContain('Nonsense');
    expect(asked).not.toContain('lowercase');
  });

  it('static routes win: Observation/{id} stays the health-record screen', async () => {
    storeLoginOf(api, maria);
    answerSchema(api);
    renderApp('/Observation/obs-1');
    // The health record's side menu frames its Observation screen; the generic page has none.
    expect(await screen.findByRole('navigation', { name: 'Health Record' })).toBeInTheDocument();
    const queries = (api.bodiesOf('POST fhir/R4/$graphql') as Array<{ query: string }>).map((b) => b.query);
    expect(queries.some((query) => query.includes('StructureDefinitionList'))).toBe(false);
  });
});

describe('resourceTitle', () => {
  it('is the name, else the code text, else Type/id', () => {
    expect(resourceTitle(rosa)).toBe('Rosa Delgado');
    expect(
      resourceTitle({
        resourceType: 'Observation',
        id: 'o1',
        status: 'final',
        code: { text: 'Body weight' },
      }),
    ).toBe('Body weight');
    expect(
      resourceTitle({
        resourceType: 'Observation',
        id: 'o1',
        status: 'final',
        code: { coding: [{ code: '29463-7', display: 'Body weight' }] },
      }),
    ).toBe('Body weight (29463-7)');
    expect(resourceTitle({ resourceType: 'Observation', id: 'o2', status: 'final', code: {} })).toBe(
      'Observation/o2',
    );
  });
});

describe('issue #9 /:resourceType/new', () => {
  async function openNewPatient() {
    storeLoginOf(api, drChen);
    answerSchema(api);
    const rendered = renderApp('/Patient/new');
    await screen.findByRole('heading', { level: 1, name: 'New Patient' });
    return rendered;
  }

  it('offers inputs for the top-level primitive elements by definition and JSON for the rest', async () => {
    await openNewPatient();
    const form = screen.getByRole('form', { name: 'New Patient' });
    expect(within(form).getByRole('textbox', { name: 'Birth Date' })).toBeInTheDocument();
    // Its codes could not be listed (no $expand answer): a text input, the server still checks it.
    expect(within(form).getByRole('textbox', { name: 'Gender' })).toBeInTheDocument();
    expect(within(form).getByRole('combobox', { name: 'Active' })).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Other fields (JSON)' })).toBeInTheDocument();
    // Arrays, complex types, choices and housekeeping elements are left to the JSON editor.
    for (const name of ['Name', 'Address', 'Deceased', 'Id', 'Meta']) {
      expect(within(form).queryByRole('textbox', { name })).toBeNull();
    }
  });

  it("SPEC §5: the server's issues show under their fields; nested ones under the JSON editor", async () => {
    await openNewPatient();
    api.once('POST fhir/R4/Patient', 400, {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Invalid date' },
          expression: ['Patient.birthDate'],
        },
        {
          severity: 'error',
          code: 'structure',
          details: { text: 'Expected array for property' },
          expression: ['Patient.name[0].given'],
        },
      ],
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Birth Date' }), { target: { value: 'yesterday' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Other fields (JSON)' }), {
      target: { value: '{"name": [{"given": "Rosa"}]}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    const birthDate = screen.getByRole('textbox', { name: 'Birth Date' });
    await waitFor(() => expect(birthDate).toHaveAccessibleDescription('Invalid date'));
    expect(birthDate).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Other fields (JSON)' })).toHaveAccessibleDescription(
      'Patient.name[0].given: Expected array for property',
    );
    expect(api.bodiesOf('POST fhir/R4/Patient')).toEqual([
      { resourceType: 'Patient', name: [{ given: 'Rosa' }], birthDate: 'yesterday' },
    ]);
  });

  it('refuses malformed JSON under the editor without sending anything', async () => {
    await openNewPatient();
    fireEvent.change(screen.getByRole('textbox', { name: 'Other fields (JSON)' }), {
      target: { value: '{"name": ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('textbox', { name: 'Other fields (JSON)' })).toHaveAccessibleDescription(
      /^Not valid JSON/,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Other fields (JSON)' }), {
      target: { value: '{"resourceType": "Observation"}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('textbox', { name: 'Other fields (JSON)' })).toHaveAccessibleDescription(
      'The resourceType must be Patient',
    );
    expect(api.bodiesOf('POST fhir/R4/Patient')).toEqual([]);
  });

  it('creates the resource and opens its page; a required binding is a choice of its codes', async () => {
    answerGenderCodes(api);
    const { router } = await openNewPatient();
    api.once('POST fhir/R4/Patient', 201, { ...rosa, id: 'new-1' });
    api.always('GET fhir/R4/Patient/new-1', 200, { ...rosa, id: 'new-1' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Birth Date' }), {
      target: { value: '1990-03-14' },
    });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Active' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Yes' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Gender' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Not set',
      'Female',
      'Male',
      'Other',
      'Unknown',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Female' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/Patient/new-1'));
    expect(api.bodiesOf('POST fhir/R4/Patient')).toEqual([
      { resourceType: 'Patient', active: true, gender: 'female', birthDate: '1990-03-14' },
    ]);
  });
});
