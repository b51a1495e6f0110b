// The names the screens show for the vital types and their series, in the app's language. Apart from
// vitalTypes.ts, which the routes import: the record's messages stay out of the app's first chunk.
import type { Message } from '../../i18n/catalog';
import { recordStrings as m } from './strings';
import type { VitalSeries, VitalType } from './vitalTypes';

const VITAL_NAMES: Readonly<Record<VitalType['slug'], Message>> = {
  'blood-pressure': m.bloodPressure,
  'heart-rate': m.heartRate,
  weight: m.weight,
};

const SERIES_NAMES: Readonly<Record<string, Message>> = {
  Systolic: m.systolic,
  Diastolic: m.diastolic,
  'Heart rate': m.heartRateSeries,
  Weight: m.weightSeries,
};

export function vitalName(vital: VitalType): Message {
  return VITAL_NAMES[vital.slug];
}

export function seriesName(series: VitalSeries): Message {
  return Object.hasOwn(SERIES_NAMES, series.label)
    ? SERIES_NAMES[series.label]
    : { id: series.label, message: series.label };
}
