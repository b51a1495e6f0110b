// Vitals (SPEC §2 Vitals, §3 vital types, §9 legend at the bottom; the value axis fitted to the data):
// a type's page reads VitalsList by its LOINC code and shows the chart (with a text alternative) and a
// table of measurements linking to their detail; blood pressure has systolic and diastolic.
import type { Observation } from '@medplum/fhirtypes';
import { fireEvent, screen, within } from '@testing-library/react';
import { VitalsLatestDocument, VitalsListDocument } from '../../../../src/graphql';
import { LATEST_COUNT, VitalsOverview } from '../../../../src/app/features/health-record/VitalsOverview';
import { VITALS_PAGE_SIZE, VitalsPage } from '../../../../src/app/features/health-record/VitalsPage';
import { seriesValue, VITAL_TYPES } from '../../../../src/app/features/health-record/vitalTypes';
import { parseDecimal } from '../../../../src/app/features/health-record/vitalObservation';
import {
  displayValue,
  pregnancyWeek,
  storedValue,
  valueAxisRange,
  vitalUnit,
} from '../../../../src/app/features/health-record/vitalDisplay';
import { outcome } from '../../support/fakeApi';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const bloodPressure = VITAL_TYPES[0];
const weight = VITAL_TYPES[2];

function bp(id: string, when: string, systolic: number, diastolic: number) {
  return {
    resource: {
      __typename: 'Observation',
      resourceType: 'Observation',
      id,
      status: 'final',
      effectiveDateTime: when,
      valueQuantity: null,
      component: [
        { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: systolic, unit: 'mm[Hg]' } },
        { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: diastolic, unit: 'mm[Hg]' } },
      ],
    },
  };
}

function mock(code: string, edges: unknown[], dueDate?: string): ScreenMock {
  return {
    request: {
      query: VitalsListDocument,
      variables: {
        patient: 'Patient/maria-1',
        code: `http://loinc.org|${code}`,
        count: VITALS_PAGE_SIZE,
        offset: 0,
      },
    },
    result: {
      data: {
        dueDate: {
          edges: dueDate
            ? [
                {
                  resource: {
                    __typename: 'Observation',
                    resourceType: 'Observation',
                    id: 'edd',
                    valueDateTime: dueDate,
                  },
                },
              ]
            : [],
        },
        ObservationConnection: { count: edges.length, offset: 0, edges },
      },
    },
  };
}

describe('SPEC §3 vital types', () => {
  it('blood pressure 85354-9 with systolic 8480-6 and diastolic 8462-4; heart rate 8867-4; weight 29463-7', () => {
    expect(VITAL_TYPES.map((v) => [v.slug, v.code])).toEqual([
      ['blood-pressure', '85354-9'],
      ['heart-rate', '8867-4'],
      ['weight', '29463-7'],
    ]);
    expect(bloodPressure.series.map((s) => s.componentCode)).toEqual(['8480-6', '8462-4']);
  });

  it('a missing component or value is null', () => {
    const measurement = bp('x', '2026-01-01', 120, 80).resource;
    expect(seriesValue(measurement, bloodPressure.series[1])).toBe(80);
    expect(seriesValue({ ...measurement, component: [] }, bloodPressure.series[0])).toBeNull();
    expect(seriesValue(measurement, weight.series[0])).toBeNull();
  });
});

describe('SPEC §2 vitals page', () => {
  it('blood pressure: chart alternative text with both series and a table linking to each measurement', async () => {
    renderScreen(<VitalsPage vital={bloodPressure} />, [
      mock('85354-9', [
        bp('bp1', '2026-01-10T10:00:00Z', 112, 70),
        bp('bp2', '2026-02-10T10:00:00Z', 118, 76),
      ]),
    ]);
    expect(
      await screen.findByRole('img', {
        name: /Blood Pressure chart of 2 measurements; latest Systolic 118, Diastolic 76/,
      }),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Blood Pressure measurements' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Date', 'Systolic (mmHg)', 'Diastolic (mmHg)']);
    const rows = within(table).getAllByRole('row').slice(1);
    // Newest first in the table.
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/health-record/vitals/bp2');
    expect(rows[0]).toHaveTextContent('11876');
    expect(document.title).toBe('Blood Pressure · Bloom');
  });

  it('empty: says there are no measurements', async () => {
    renderScreen(<VitalsPage vital={weight} />, [mock('29463-7', [])]);
    expect(await screen.findByText('No weight measurements yet')).toBeInTheDocument();
  });

  it('error: shows the message', async () => {
    renderScreen(<VitalsPage vital={weight} />, [
      { request: mock('29463-7', []).request, error: new Error('Nope') },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Nope');
  });
});

function weighing(id: string, when: string, value: number) {
  return {
    resource: {
      __typename: 'Observation',
      resourceType: 'Observation',
      id,
      effectiveDateTime: when,
      valueQuantity: { value, unit: 'lbs' },
      component: null,
    },
  };
}

describe('the Vitals index: the latest reading of each vital with a small trend line', () => {
  const latest: ScreenMock = {
    request: { query: VitalsLatestDocument, variables: { patient: 'Patient/maria-1', count: LATEST_COUNT } },
    result: {
      data: {
        // Newest first, as the query sorts them.
        // The connections' __typename lets Apollo match the LatestVitalsFields fragment.
        bloodPressure: {
          __typename: 'ObservationConnection',
          count: 2,
          edges: [bp('bp2', '2026-02-10T10:00:00Z', 118, 76), bp('bp1', '2026-01-10T10:00:00Z', 112, 70)],
        },
        heartRate: { __typename: 'ObservationConnection', count: 0, edges: [] },
        weight: {
          __typename: 'ObservationConnection',
          count: 3,
          edges: [
            weighing('w3', '2026-02-10T10:00:00Z', 161.3),
            weighing('w2', '2026-01-10T10:00:00Z', 150.4),
            weighing('w1', '2025-12-10T10:00:00Z', 141.2),
          ],
        },
      },
    },
  };

  it('shows each type linking to its chart, its latest value in printed units and date, and a trend', async () => {
    renderScreen(<VitalsOverview />, [latest]);
    const list = screen.getByRole('list', { name: 'Vital types' });
    const bpItem = (await within(list).findByText('118/76 mmHg')).closest('li') as HTMLElement;
    expect(within(bpItem).getByRole('link', { name: 'Blood Pressure' })).toHaveAttribute(
      'href',
      '/health-record/vitals/blood-pressure',
    );
    expect(within(bpItem).getByTestId('sparkline')).toBeInTheDocument();
    expect(bpItem.querySelector('time')).toHaveAttribute('datetime', '2026-02-10T10:00:00Z');
    // jsdom's locale is en-US: weight in lb.
    const weightItem = within(list).getByText('161.3 lb').closest('li') as HTMLElement;
    expect(weightItem.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(3);
    const heartItem = within(list).getByRole('link', { name: 'Heart Rate' }).closest('li') as HTMLElement;
    expect(heartItem).toHaveTextContent('No readings yet');
    expect(document.title).toBe('Vitals · Bloom');
  });
});

describe('the weeks of pregnancy on the vitals chart and table', () => {
  it('with a due date on record, each measurement shows its week of pregnancy', async () => {
    // Due 2026-04-20: 2026-01-10 is 100 days before, so day 180, week 25; 2026-02-10 is week 30.
    renderScreen(<VitalsPage vital={bloodPressure} />, [
      mock(
        '85354-9',
        [bp('bp1', '2026-01-10T10:00:00Z', 112, 70), bp('bp2', '2026-02-10T10:00:00Z', 118, 76)],
        '2026-04-20',
      ),
    ]);
    const table = await screen.findByRole('table', { name: 'Blood Pressure measurements' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Date', 'Week of pregnancy', 'Systolic (mmHg)', 'Diastolic (mmHg)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getAllByRole('cell')[1]).toHaveTextContent(/^30$/);
    expect(within(rows[1]).getAllByRole('cell')[1]).toHaveTextContent(/^25$/);
  });

  it('counts weeks from the due date, nothing outside the pregnancy', () => {
    expect(pregnancyWeek('2026-04-20', new Date('2026-01-10T10:00:00Z'))).toBe(25);
    expect(pregnancyWeek('2026-04-20', new Date('2026-04-20T10:00:00Z'))).toBe(40);
    expect(pregnancyWeek('2026-04-20', new Date('2025-06-01T00:00:00Z'))).toBeUndefined();
  });
});

describe("vitals in the reader's units, on an axis fitted to the readings", () => {
  it('weight reads in kg where people weigh in kg, stored values being lb; entry converts back to lb', () => {
    const reading = {
      id: 'w1',
      effectiveDateTime: '2026-01-01',
      valueQuantity: { value: 150, unit: 'lbs' },
      component: null,
    };
    expect(vitalUnit(weight, 'en-GB')).toBe('kg');
    expect(vitalUnit(weight, 'en-US')).toBe('lb');
    expect(vitalUnit(bloodPressure)).toBe('mmHg');
    expect(displayValue(reading, weight.series[0], weight, 'en-GB')).toBe(68);
    expect(displayValue(reading, weight.series[0], weight, 'en-US')).toBe(150);
    expect(storedValue(68, weight, 'en-GB')).toBe(149.9);
    expect(storedValue(120, bloodPressure, 'en-GB')).toBe(120);
  });

  it('the value axis spans the readings with a margin, not 0 to the top: a 20 lb gain is a slope', () => {
    expect(valueAxisRange([141.2, 150.4, 161.3])).toEqual({ min: 137, max: 166 });
    expect(valueAxisRange([70, 70])).toEqual({ min: 68, max: 72 });
    expect(valueAxisRange([null])).toBeUndefined();
  });
});

describe('SPEC §2 vitals entry form (SPEC §3 Observation, §5 decimal values)', () => {
  it('a value that is not a number is refused in the form with a message and nothing is sent', async () => {
    const { api } = renderScreen(<VitalsPage vital={weight} />, [mock('29463-7', [])]);
    const field = await screen.findByRole('textbox', { name: /^Weight \(lb\)/ });
    fireEvent.change(field, { target: { value: '150,5kg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a number, e.g. 120 or 150.5')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('blood pressure saves systolic and diastolic as a preliminary Observation, then the chart re-reads', async () => {
    const before = mock('85354-9', [bp('bp1', '2026-01-10T10:00:00Z', 112, 70)]);
    const after = mock('85354-9', [
      bp('bp1', '2026-01-10T10:00:00Z', 112, 70),
      bp('bp-new', '2026-02-10T10:00:00Z', 121.5, 79),
    ]);
    const { api } = renderScreen(<VitalsPage vital={bloodPressure} />, [before, after]);
    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'bp-new' });
    fireEvent.change(await screen.findByRole('textbox', { name: /^Systolic/ }), {
      target: { value: '121.5' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /^Diastolic/ }), { target: { value: '79' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Measurement saved.')).toBeInTheDocument();
    const [body] = api.bodiesOf('POST fhir/R4/Observation') as Observation[];
    expect(body).toMatchObject({
      resourceType: 'Observation',
      status: 'preliminary',
      subject: { reference: 'Patient/maria-1' },
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      component: [
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
          valueQuantity: {
            value: 121.5,
            unit: 'mm[Hg]',
            system: 'http://unitsofmeasure.org',
            code: 'mm[Hg]',
          },
        },
        { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: 79 } },
      ],
    });
    expect(Number.isNaN(Date.parse(body.effectiveDateTime ?? ''))).toBe(false);
    expect(
      await screen.findByRole('img', {
        name: /chart of 2 measurements; latest Systolic 121.5, Diastolic 79/,
      }),
    ).toBeInTheDocument();
  });

  it('a refused save shows the server message', async () => {
    const { api } = renderScreen(<VitalsPage vital={weight} />, [mock('29463-7', [])]);
    api.once('POST fhir/R4/Observation', 400, outcome('Invalid value'));
    fireEvent.change(await screen.findByRole('textbox', { name: /^Weight/ }), { target: { value: '150.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid value');
  });
});

describe('SPEC §5 decimal parsing', () => {
  it.each([
    ['120', 120],
    ['150.5', 150.5],
    [' 72 ', 72],
    ['.5', 0.5],
    ['-1', -1],
  ])('%j is %d', (text, value) => expect(parseDecimal(text)).toBe(value));
  it.each(['', 'abc', '1,5', '1.2.3', '12kg', 'NaN', 'Infinity'])('%j is refused', (text) =>
    expect(parseDecimal(text)).toBeUndefined(),
  );
});

describe('issue #7 "40 weeks of vitals, never silently cut at a page"', () => {
  it('asks for a page far above 40 weeks of readings, and a total beyond it offers Load more, which adds the rest to the chart', async () => {
    expect(VITALS_PAGE_SIZE).toBeGreaterThanOrEqual(280);
    const first = [bp('a', '2026-01-01T09:00:00Z', 110, 70), bp('b', '2026-01-08T09:00:00Z', 112, 72)];
    const rest = [bp('c', '2026-01-15T09:00:00Z', 115, 75)];
    const variables = {
      patient: 'Patient/maria-1',
      code: 'http://loinc.org|85354-9',
      count: VITALS_PAGE_SIZE,
    };
    renderScreen(<VitalsPage vital={bloodPressure} />, [
      {
        request: { query: VitalsListDocument, variables: { ...variables, offset: 0 } },
        result: {
          data: { dueDate: { edges: [] }, ObservationConnection: { count: 3, offset: 0, edges: first } },
        },
      },
      {
        request: { query: VitalsListDocument, variables: { ...variables, offset: 2 } },
        result: {
          data: { dueDate: { edges: [] }, ObservationConnection: { count: 3, offset: 2, edges: rest } },
        },
      },
    ]);
    await screen.findByRole('img', { name: /chart of 2 measurements/ });
    expect(screen.getByText('Showing 2 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(
      await screen.findByRole('img', { name: /chart of 3 measurements; latest Systolic 115/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Blood Pressure measurements' })).getAllByRole('row'),
    ).toHaveLength(4);
  }, 20_000);
});
