// health-record/vitals/{blood-pressure|heart-rate|weight} (SPEC §2 Vitals, §9): a line chart of every
// measurement (VitalsChart: value axis fitted to the readings, legend at the bottom; blood pressure
// shows systolic and diastolic) with a text alternative, and a table of measurements linking to their
// detail. Units are printed for people (mmHg), weight in the reader's locale unit (vitalDisplay.ts).
// With a due date on record, the time axis and the table mark the weeks of pregnancy.
import { useQuery } from '@apollo/client/react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { VitalsListDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { formatNumber } from '../../components/plainUnits';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { LoadMore } from './LoadMore';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';
import { VitalEntryForm } from './VitalEntryForm';
import { displayValue, pregnancyWeek, vitalUnit } from './vitalDisplay';
import { VitalsChart } from './VitalsChart';
import type { VitalType } from './vitalTypes';
import { recordStrings as m } from './strings';
import { seriesName, vitalName } from './vitalNames';

export const VITALS_PAGE_SIZE = 500;

export function VitalsPage({ vital }: { vital: VitalType }) {
  const patient = usePatientReference() ?? '';
  const base = useHealthRecordBase();
  const t = useT();
  const locale = useLocale();
  const title = t(vitalName(vital));
  // Inside a sentence the name is lower case (English "No weight measurements yet").
  const names = { vital: title, name: title.toLowerCase() };
  const shown = (value: number | null | undefined) =>
    value === null || value === undefined ? '–' : formatNumber(value, locale);
  const { data, loading, error, refetch, fetchMore } = useQuery(VitalsListDocument, {
    variables: { patient, code: `http://loinc.org|${vital.code}`, count: VITALS_PAGE_SIZE, offset: 0 },
    skip: !patient,
    notifyOnNetworkStatusChange: true,
  });
  const connection = data?.ObservationConnection;
  const measurements = (connection?.edges ?? []).flatMap((edge) => (edge?.resource ? [edge.resource] : []));
  const dueDate = data?.dueDate?.edges?.[0]?.resource?.valueDateTime ?? undefined;
  return (
    <>
      <PageHeading title={title} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(m.loadingVital, names)} />}
      {data && measurements.length === 0 && <EmptyState text={t(m.noMeasurements, names)} />}
      {measurements.length > 0 && (
        <>
          <VitalsChart vital={vital} measurements={measurements} dueDate={dueDate} />
          <TableContainer tabIndex={0} aria-label={t(m.measurementsTable, names)} sx={{ mt: 3 }}>
            <Table size="small" aria-label={t(m.measurements, names)}>
              <TableHead>
                <TableRow>
                  <TableCell scope="col">{t(m.date)}</TableCell>
                  {dueDate && <TableCell scope="col">{t(m.weekOfPregnancy)}</TableCell>}
                  {vital.series.map((series) => (
                    <TableCell key={series.label} scope="col">
                      {t(m.seriesUnit, { series: t(seriesName(series)), unit: vitalUnit(vital) })}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {[...measurements].reverse().map((measurement) => (
                  <TableRow key={measurement.id}>
                    <TableCell>
                      <ResourceLink to={`${base}/vitals/${measurement.id}`}>
                        <DateTimeDisplay value={measurement.effectiveDateTime} />
                      </ResourceLink>
                    </TableCell>
                    {dueDate && (
                      <TableCell>
                        {measurement.effectiveDateTime
                          ? (pregnancyWeek(dueDate, new Date(measurement.effectiveDateTime)) ?? '–')
                          : '–'}
                      </TableCell>
                    )}
                    {vital.series.map((series) => (
                      <TableCell key={series.label}>
                        {shown(displayValue(measurement, series, vital))}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
      <LoadMore
        loaded={measurements.length}
        total={connection?.count}
        loading={loading}
        onLoadMore={() =>
          void fetchMore({
            variables: { offset: measurements.length },
            updateQuery: (previous, { fetchMoreResult }) => ({
              ...previous,
              ObservationConnection: appendPage(
                previous.ObservationConnection,
                fetchMoreResult.ObservationConnection,
              ),
            }),
          })
        }
      />
      {/* A saved measurement reaches the chart through the client's write (graphql/resource-writes.ts). */}
      {patient && data && <VitalEntryForm vital={vital} patient={patient} />}
    </>
  );
}
