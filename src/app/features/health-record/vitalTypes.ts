// The vital types of SPEC §3: route segment, LOINC code, series (blood pressure: systolic 8480-6 and
// diastolic 8462-4 components) and unit.
export interface VitalSeries {
  readonly label: string;
  /** LOINC display of the component (or of the type itself). */
  readonly display: string;
  /** Component LOINC code; absent when the value is the Observation's own valueQuantity. */
  readonly componentCode?: string;
}

export interface VitalType {
  readonly slug: 'blood-pressure' | 'heart-rate' | 'weight';
  readonly title: string;
  readonly code: string;
  readonly unit: string;
  /** UCUM code of the unit (SPEC §3). */
  readonly ucum: string;
  readonly display: string;
  readonly series: readonly VitalSeries[];
}

export const VITAL_TYPES: readonly VitalType[] = [
  {
    slug: 'blood-pressure',
    title: 'Blood Pressure',
    code: '85354-9',
    display: 'Blood pressure panel with all children optional',
    unit: 'mm[Hg]',
    ucum: 'mm[Hg]',
    series: [
      { label: 'Systolic', display: 'Systolic blood pressure', componentCode: '8480-6' },
      { label: 'Diastolic', display: 'Diastolic blood pressure', componentCode: '8462-4' },
    ],
  },
  {
    slug: 'heart-rate',
    title: 'Heart Rate',
    code: '8867-4',
    display: 'Heart rate',
    unit: 'beats/minute',
    ucum: '/min',
    series: [{ label: 'Heart rate', display: 'Heart rate' }],
  },
  {
    slug: 'weight',
    title: 'Weight',
    code: '29463-7',
    display: 'Body weight',
    unit: 'lbs',
    ucum: '[lb_av]',
    series: [{ label: 'Weight', display: 'Body weight' }],
  },
];

export interface VitalMeasurement {
  readonly id: string | null;
  readonly effectiveDateTime: string | null;
  readonly valueQuantity: { readonly value: number | null; readonly unit?: string | null } | null;
  readonly component: ReadonlyArray<{
    readonly code: { readonly coding: ReadonlyArray<{ readonly code: string | null } | null> | null } | null;
    readonly valueQuantity: { readonly value: number | null } | null;
  } | null> | null;
}

/** The number of one series in a measurement, or null when it is missing. */
export function seriesValue(measurement: VitalMeasurement, series: VitalSeries): number | null {
  if (!series.componentCode) return measurement.valueQuantity?.value ?? null;
  const component = (measurement.component ?? []).find((c) =>
    (c?.code?.coding ?? []).some((coding) => coding?.code === series.componentCode),
  );
  return component?.valueQuantity?.value ?? null;
}
