// The vital types of SPEC §3: route segment, LOINC code, series (blood pressure: systolic 8480-6 and
// diastolic 8462-4 components) and unit.
export interface VitalSeries {
  readonly label: string;
  /** Component LOINC code; absent when the value is the Observation's own valueQuantity. */
  readonly componentCode?: string;
}

export interface VitalType {
  readonly slug: 'blood-pressure' | 'heart-rate' | 'weight';
  readonly title: string;
  readonly code: string;
  readonly unit: string;
  readonly series: readonly VitalSeries[];
}

export const VITAL_TYPES: readonly VitalType[] = [
  {
    slug: 'blood-pressure',
    title: 'Blood Pressure',
    code: '85354-9',
    unit: 'mm[Hg]',
    series: [
      { label: 'Systolic', componentCode: '8480-6' },
      { label: 'Diastolic', componentCode: '8462-4' },
    ],
  },
  {
    slug: 'heart-rate',
    title: 'Heart Rate',
    code: '8867-4',
    unit: 'beats/minute',
    series: [{ label: 'Heart rate' }],
  },
  { slug: 'weight', title: 'Weight', code: '29463-7', unit: 'lbs', series: [{ label: 'Weight' }] },
];

export interface VitalMeasurement {
  readonly id: string | null;
  readonly effectiveDateTime: string | null;
  readonly valueQuantity: { readonly value: number | null } | null;
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
