// health-record/vitals (SPEC §2 Vitals): each vital type with its latest reading (value, unit, date)
// and a small trend line of its recent readings, linking to its chart page. One VitalsLatest query.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { VitalsLatestDocument, type VitalsLatestQuery } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { ResourceLink } from '../../components/ResourceLink';
import { formatNumber } from '../../components/plainUnits';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { Sparkline } from './Sparkline';
import { recordStrings as m } from './strings';
import { vitalName } from './vitalNames';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';
import { displayValue, vitalUnit } from './vitalDisplay';
import { VITAL_TYPES, type VitalMeasurement, type VitalType } from './vitalTypes';

/** How many recent readings the trend line draws. */
export const LATEST_COUNT = 12;

const FIELDS: Readonly<Record<VitalType['slug'], keyof Omit<VitalsLatestQuery, '__typename'>>> = {
  'blood-pressure': 'bloodPressure',
  'heart-rate': 'heartRate',
  weight: 'weight',
};

function LatestReading({ vital, readings }: { vital: VitalType; readings: readonly VitalMeasurement[] }) {
  const t = useT();
  const locale = useLocale();
  const latest = readings[0];
  if (!latest) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t(m.noReadings)}
      </Typography>
    );
  }
  const values = vital.series.map((series) => displayValue(latest, series, vital));
  const text = values.map((value) => (value === null ? '–' : formatNumber(value, locale))).join('/');
  // Oldest to newest, the first series (systolic for blood pressure).
  const trend = [...readings]
    .reverse()
    .map((reading) => displayValue(reading, vital.series[0], vital))
    .filter((value): value is number => value !== null);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Typography sx={{ fontWeight: 600 }}>
        {text} {vitalUnit(vital)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        <DateTimeDisplay value={latest.effectiveDateTime} />
      </Typography>
      <Box sx={{ color: 'primary.main', display: 'flex' }}>
        <Sparkline values={trend} />
      </Box>
    </Box>
  );
}

export function VitalsOverview() {
  const base = useHealthRecordBase();
  const patient = usePatientReference() ?? '';
  const t = useT();
  const { data, loading, error, refetch } = useQuery(VitalsLatestDocument, {
    variables: { patient, count: LATEST_COUNT },
    skip: !patient,
  });
  return (
    <>
      <PageHeading title={t(m.vitals)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(m.loadingVitals)} />}
      <List aria-label={t(m.vitalTypes)}>
        {VITAL_TYPES.map((vital) => {
          const readings = (data?.[FIELDS[vital.slug]]?.edges ?? []).flatMap((edge) =>
            edge?.resource ? [edge.resource] : [],
          );
          return (
            <ListItem key={vital.slug} divider sx={{ px: 0, display: 'block' }}>
              <ResourceLink to={`${base}/vitals/${vital.slug}`}>{t(vitalName(vital))}</ResourceLink>
              {data && <LatestReading vital={vital} readings={readings} />}
            </ListItem>
          );
        })}
      </List>
    </>
  );
}
