// One vital type's line chart, drawn as plain SVG (SPEC §9: legend at the bottom): the value axis
// fitted to the readings, the time axis ticked on the weeks of pregnancy when the due date is known, a
// line and a mark per reading for each series (blood pressure: systolic and diastolic). A chart library
// cost this screen ~80 KB on the wire, a third of its budget; these few shapes need none. The text
// alternative (role img) and the measurements table carry the values for screen readers.
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useLayoutEffect, useRef, useState } from 'react';
import { formatFhirDate } from '../../components/DateTimeDisplay';
import { formatNumber } from '../../components/plainUnits';
import { useLocale, useT, type Translate } from '../../i18n/LocaleProvider';
import { linearScale, timeDomain, timeTicks, valueTicks } from './chartScale';
import { displayValue, pregnancyWeek, valueAxisRange, vitalUnit } from './vitalDisplay';
import type { VitalMeasurement, VitalType } from './vitalTypes';
import { recordStrings as m } from './strings';
import { seriesName, vitalName } from './vitalNames';

const HEIGHT = 280;
const MARGIN = { top: 12, right: 16, bottom: 44, left: 60 };
/** Until the box is measured (and in jsdom, which has no layout): a desktop width. */
const FALLBACK_WIDTH = 640;
/** The second series is dashed, so the two blood pressure lines differ by more than colour. */
const DASHES = [undefined, '6 4'];

/** The width the chart's box has, following resizes (phones turning, the side menu opening). */
function useBoxWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    const measure = () => {
      if (box.clientWidth > 0) setWidth(box.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * A time tick's label in the app's language: the day, and under it the week of pregnancy when the due
 * date is known.
 */
function tickLines(at: number, dueDate: string | undefined, locale: string, t: Translate): string[] {
  const day = new Date(at).toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const week = dueDate ? pregnancyWeek(dueDate, new Date(at)) : undefined;
  return week === undefined ? [day] : [day, t(m.week, { week })];
}

export function VitalsChart({
  vital,
  measurements,
  dueDate,
}: {
  vital: VitalType;
  measurements: readonly VitalMeasurement[];
  dueDate?: string;
}) {
  const theme = useTheme();
  const t = useT();
  const locale = useLocale();
  const shownName = t(vitalName(vital));
  const [boxRef, width] = useBoxWidth();
  const dated = measurements.filter((reading) => reading.effectiveDateTime);
  const latest = dated[dated.length - 1];
  const unit = vitalUnit(vital);
  const times = dated.map((reading) => Date.parse(reading.effectiveDateTime ?? ''));
  const values = vital.series.map((series) => dated.map((reading) => displayValue(reading, series, vital)));
  const range = valueAxisRange(values.flat()) ?? { min: 0, max: 1 };
  const summary = latest
    ? t(m.chartSummary, {
        vital: shownName,
        name: shownName.toLowerCase(),
        count: dated.length,
        values: vital.series
          .map((s) => {
            const value = displayValue(latest, s, vital);
            return `${t(seriesName(s))} ${value === null ? '–' : formatNumber(value, locale)}`;
          })
          .join(', '),
        unit,
        date: formatFhirDate(latest.effectiveDateTime ?? '', locale),
      })
    : t(m.chartEmpty, { vital: shownName, name: shownName.toLowerCase() });

  const plotRight = width - MARGIN.right;
  const plotBottom = HEIGHT - MARGIN.bottom;
  const domain = timeDomain(times);
  const x = linearScale(domain, [MARGIN.left, plotRight]);
  const y = linearScale([range.min, range.max], [plotBottom, MARGIN.top]);
  const xTicks = timeTicks(domain, Math.max(2, Math.floor((plotRight - MARGIN.left) / 90)), dueDate);
  const yTicks = valueTicks(range.min, range.max, 5);
  const colors = [theme.palette.primary.main, theme.palette.secondary.main];
  const muted = theme.palette.text.secondary;
  const grid = theme.palette.divider;

  return (
    <Box ref={boxRef} role="img" aria-label={summary} sx={{ width: '100%' }}>
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} style={{ display: 'block' }}>
        <g fontSize={12} fill={muted}>
          {yTicks.map((tick) => (
            <g key={`y${tick}`}>
              <line x1={MARGIN.left} x2={plotRight} y1={y(tick)} y2={y(tick)} stroke={grid} />
              <text x={MARGIN.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle">
                {formatNumber(tick, locale)}
              </text>
            </g>
          ))}
          {xTicks.map((tick) => (
            <g key={`x${tick}`}>
              <line x1={x(tick)} x2={x(tick)} y1={MARGIN.top} y2={plotBottom} stroke={grid} />
              <text x={x(tick)} y={plotBottom + 18} textAnchor="middle">
                {tickLines(tick, dueDate, locale, t).map((line, index) => (
                  <tspan key={line} x={x(tick)} dy={index === 0 ? 0 : 15}>
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          ))}
          <line x1={MARGIN.left} x2={plotRight} y1={plotBottom} y2={plotBottom} stroke={muted} />
          <line x1={MARGIN.left} x2={MARGIN.left} y1={MARGIN.top} y2={plotBottom} stroke={muted} />
          <text
            transform={`translate(14 ${(MARGIN.top + plotBottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            dominantBaseline="middle"
          >
            {unit}
          </text>
        </g>
        {vital.series.map((series, index) => {
          const points = values[index].flatMap((value, i) =>
            value === null ? [] : [[x(times[i]), y(value)]],
          );
          const color = colors[index % colors.length];
          return (
            <g key={series.label} stroke={color} data-series={series.label}>
              <path
                d={points
                  .map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`)
                  .join('')}
                fill="none"
                strokeWidth={2}
                strokeDasharray={DASHES[index]}
                strokeLinejoin="round"
              />
              {points.map(([px, py], i) => (
                <circle
                  key={i}
                  cx={px}
                  cy={py}
                  r={3.5}
                  fill={theme.palette.background.paper}
                  strokeWidth={2}
                />
              ))}
            </g>
          );
        })}
      </svg>
      <Box
        component="ul"
        sx={{ display: 'flex', justifyContent: 'center', gap: 3, listStyle: 'none', m: 0, p: 0 }}
      >
        {vital.series.map((series, index) => (
          <Box component="li" key={series.label} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <svg width={24} height={10} aria-hidden="true" focusable="false">
              <line
                x1={0}
                x2={24}
                y1={5}
                y2={5}
                stroke={colors[index % colors.length]}
                strokeWidth={2}
                strokeDasharray={DASHES[index]}
              />
            </svg>
            {t(seriesName(series))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
