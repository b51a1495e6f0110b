// The vitals chart (SPEC §2 Vitals, §9 legend at the bottom; charts scale to the data and
// mark the weeks of pregnancy on the time axis), drawn as plain SVG: its axes' ticks, its lines and
// marks, its legend, and its text alternative.
import { render, screen, within } from '@testing-library/react';
import {
  linearScale,
  timeDomain,
  timeTicks,
  valueTicks,
} from '../../../../src/app/features/health-record/chartScale';
import { VitalsChart } from '../../../../src/app/features/health-record/VitalsChart';
import { VITAL_TYPES, type VitalMeasurement } from '../../../../src/app/features/health-record/vitalTypes';

const bloodPressure = VITAL_TYPES[0];
const weight = VITAL_TYPES[2];
const DAY = 24 * 60 * 60 * 1000;

function weighing(id: string, when: string, pounds: number): VitalMeasurement {
  return { id, effectiveDateTime: when, valueQuantity: { value: pounds, unit: 'lb' }, component: null };
}

function pressure(id: string, when: string, systolic: number, diastolic: number | null): VitalMeasurement {
  return {
    id,
    effectiveDateTime: when,
    valueQuantity: null,
    component: [
      { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: systolic } },
      ...(diastolic === null
        ? []
        : [{ code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: diastolic } }]),
    ],
  };
}

/** The texts of the SVG's tick labels (each tick's lines joined by a space). */
function tickLabels(chart: HTMLElement): string[] {
  return [...chart.querySelectorAll('svg text')].map((text) =>
    [...text.childNodes].map((node) => node.textContent).join(' '),
  );
}

describe('the chart axes', () => {
  it('value ticks are round numbers inside the fitted range', () => {
    expect(valueTicks(137, 166)).toEqual([140, 150, 160]);
    expect(valueTicks(68, 72)).toEqual([68, 69, 70, 71, 72]);
    expect(valueTicks(0, 0.5, 5)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(valueTicks(5, 5)).toEqual([5]);
  });

  it('a linear scale maps the domain onto the range, top to bottom as SVG draws values', () => {
    const y = linearScale([100, 200], [300, 100]);
    expect(y(100)).toBe(300);
    expect(y(150)).toBe(200);
    expect(y(200)).toBe(100);
    expect(linearScale([5, 5], [0, 10])(5)).toBe(5);
  });

  it('a single reading gets a week around it; several span first to last', () => {
    const at = Date.parse('2026-01-10T10:00:00Z');
    expect(timeDomain([at])).toEqual([at - 3.5 * DAY, at + 3.5 * DAY]);
    expect(timeDomain([at + DAY, at])).toEqual([at, at + DAY]);
  });

  it('with a due date, time ticks fall on the first day of pregnancy weeks, thinned to fit', () => {
    // Due 2026-04-20: the last period began 2025-07-14, so week 25 starts 2026-01-05, week 26 on 01-12.
    const span: [number, number] = [Date.parse('2026-01-04T00:00:00Z'), Date.parse('2026-02-10T10:00:00Z')];
    const weekly = timeTicks(span, 10, '2026-04-20').map((at) => new Date(at).toISOString().slice(0, 10));
    expect(weekly).toEqual([
      '2026-01-05',
      '2026-01-12',
      '2026-01-19',
      '2026-01-26',
      '2026-02-02',
      '2026-02-09',
    ]);
    const thinned = timeTicks(span, 3, '2026-04-20').map((at) => new Date(at).toISOString().slice(0, 10));
    expect(thinned).toEqual(['2026-01-05', '2026-01-19', '2026-02-02']);
  });

  it('without a due date (or outside the pregnancy), time ticks fall on whole days a round step apart', () => {
    const span: [number, number] = [Date.parse('2026-01-01T08:00:00Z'), Date.parse('2026-01-29T08:00:00Z')];
    const ticks = timeTicks(span, 5).map((at) => new Date(at).toISOString().slice(0, 10));
    expect(ticks).toEqual(['2026-01-02', '2026-01-09', '2026-01-16', '2026-01-23']);
    expect(timeTicks(span, 5, '2020-01-01')).toEqual(timeTicks(span, 5));
  });
});

describe('SPEC §2 vitals chart', () => {
  it('weight: one line through every reading, on a value axis fitted to the readings (not from 0)', () => {
    render(
      <VitalsChart
        vital={weight}
        measurements={[
          weighing('w1', '2026-01-01T09:00:00Z', 141.2),
          weighing('w2', '2026-01-15T09:00:00Z', 150.4),
          weighing('w3', '2026-01-29T09:00:00Z', 161.3),
        ]}
      />,
    );
    const chart = screen.getByRole('img', {
      name: /^Weight chart of 3 measurements; latest Weight 161.3 lb on /,
    });
    const lines = chart.querySelectorAll('g[data-series] path');
    expect(lines).toHaveLength(1);
    expect(lines[0].getAttribute('d')?.match(/[ML]/g)).toHaveLength(3);
    expect(chart.querySelectorAll('g[data-series] circle')).toHaveLength(3);
    // valueAxisRange gives 137-166: ticks 140, 150, 160 and the unit; nothing at 0.
    const labels = tickLabels(chart);
    expect(labels).toEqual(expect.arrayContaining(['140', '150', '160', 'lb']));
    expect(labels).not.toContain('0');
    // The heaviest reading is drawn highest (SVG y grows downwards).
    const ys = [...chart.querySelectorAll('g[data-series] circle')].map((c) => Number(c.getAttribute('cy')));
    expect(ys[0]).toBeGreaterThan(ys[1]);
    expect(ys[1]).toBeGreaterThan(ys[2]);
  });

  it('blood pressure: two series, the second dashed, a missing value skipped, the legend below the plot', () => {
    render(
      <VitalsChart
        vital={bloodPressure}
        measurements={[
          pressure('b1', '2026-01-10T10:00:00Z', 112, 70),
          pressure('b2', '2026-01-20T10:00:00Z', 115, null),
          pressure('b3', '2026-02-10T10:00:00Z', 118, 76),
        ]}
      />,
    );
    const chart = screen.getByRole('img', { name: /^Blood Pressure chart of 3 measurements/ });
    const systolic = chart.querySelector('g[data-series="Systolic"]');
    const diastolic = chart.querySelector('g[data-series="Diastolic"]');
    expect(systolic?.querySelectorAll('circle')).toHaveLength(3);
    expect(diastolic?.querySelectorAll('circle')).toHaveLength(2);
    expect(systolic?.querySelector('path')?.getAttribute('stroke-dasharray')).toBeNull();
    expect(diastolic?.querySelector('path')?.getAttribute('stroke-dasharray')).toBe('6 4');
    const legend = within(chart).getByRole('list');
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Systolic', 'Diastolic']);
    // At the bottom: the legend comes after the plot.
    const plot = chart.querySelector('svg') as SVGSVGElement;
    expect(plot.compareDocumentPosition(legend) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('with a due date, the time axis names the weeks of pregnancy under the days', () => {
    render(
      <VitalsChart
        vital={weight}
        dueDate="2026-04-20"
        measurements={[
          weighing('w1', '2026-01-04T09:00:00Z', 141.2),
          weighing('w2', '2026-02-10T09:00:00Z', 150.4),
        ]}
      />,
    );
    const labels = tickLabels(screen.getByRole('img', { name: /^Weight chart of 2 measurements/ }));
    expect(labels).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Jan 5 Week 25$/),
        expect.stringMatching(/^Jan 12 Week 26$/),
        expect.stringMatching(/^Feb 9 Week 30$/),
      ]),
    );
  });

  it('a single reading is a mark in the middle of a week-wide axis', () => {
    render(<VitalsChart vital={weight} measurements={[weighing('w1', '2026-01-04T09:00:00Z', 141.2)]} />);
    const chart = screen.getByRole('img', { name: /^Weight chart of 1 measurement; latest Weight 141.2/ });
    const mark = chart.querySelector('g[data-series] circle');
    expect(Number(mark?.getAttribute('cx'))).toBeGreaterThan(300);
    expect(Number(mark?.getAttribute('cx'))).toBeLessThan(400);
  });
});
