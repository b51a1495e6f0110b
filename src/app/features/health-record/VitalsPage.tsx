// health-record/vitals/{blood-pressure|heart-rate|weight} (SPEC §2 Vitals, §9): a line chart of every
// measurement (value axis fitted to the readings, legend at the bottom; blood pressure shows systolic
// and diastolic) with a text alternative, and a table of measurements linking to their detail. Units
// are printed for people (mmHg), weight in the reader's locale unit (vitalDisplay.ts). With a due date
// on record, the time axis and the table mark the weeks of pregnancy.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { ChartsAxis } from '@mui/x-charts/ChartsAxis';
import { ChartsDataProvider } from '@mui/x-charts/ChartsDataProvider';
import { ChartsLegend } from '@mui/x-charts/ChartsLegend';
import { ChartsSurface } from '@mui/x-charts/ChartsSurface';
import { ChartsWrapper } from '@mui/x-charts/ChartsWrapper';
import { LinePlot, MarkPlot } from '@mui/x-charts/LineChart';
import { VitalsListDocument } from '../../../graphql';
import { DateTimeDisplay, formatFhirDate } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { LoadMore } from './LoadMore';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';
import { VitalEntryForm } from './VitalEntryForm';
import { displayValue, pregnancyWeek, valueAxisRange, vitalUnit } from './vitalDisplay';
import type { VitalMeasurement, VitalType } from './vitalTypes';

export const VITALS_PAGE_SIZE = 500;

/** A time-axis tick: the day, and the week of pregnancy under it when the due date is known. */
function tickText(value: Date, dueDate: string | undefined): string {
  const day = value.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  const week = dueDate ? pregnancyWeek(dueDate, value) : undefined;
  return week === undefined ? day : `${day}\nWeek ${week}`;
}

function VitalsChart({
  vital,
  measurements,
  dueDate,
}: {
  vital: VitalType;
  measurements: readonly VitalMeasurement[];
  dueDate?: string;
}) {
  const dated = measurements.filter((m) => m.effectiveDateTime);
  const latest = dated[dated.length - 1];
  const unit = vitalUnit(vital);
  const range = valueAxisRange(dated.flatMap((m) => vital.series.map((s) => displayValue(m, s, vital))));
  const summary = latest
    ? `${vital.title} chart of ${dated.length} measurements; latest ${vital.series
        .map((s) => `${s.label} ${displayValue(latest, s, vital) ?? '–'}`)
        .join(', ')} ${unit} on ${formatFhirDate(latest.effectiveDateTime ?? '')}.`
    : `${vital.title} chart with no measurements.`;
  return (
    <Box role="img" aria-label={summary} sx={{ width: '100%', height: 320 }}>
      {/* LineChart's parts without its tooltip (and the tooltip's popper library): the text alternative
          and the table carry the values, and the screen stays within its JavaScript budget. */}
      <ChartsDataProvider
        height={320}
        xAxis={[
          {
            scaleType: 'time',
            data: dated.map((m) => new Date(m.effectiveDateTime ?? '')),
            valueFormatter: (value: Date) => tickText(value, dueDate),
          },
        ]}
        yAxis={[{ ...range, label: unit }]}
        series={vital.series.map((series) => ({
          type: 'line' as const,
          label: series.label,
          data: dated.map((m) => displayValue(m, series, vital)),
          connectNulls: true,
        }))}
      >
        <ChartsWrapper legendPosition={{ vertical: 'bottom', horizontal: 'center' }}>
          <ChartsLegend />
          <ChartsSurface>
            <LinePlot />
            <ChartsAxis />
            <MarkPlot />
          </ChartsSurface>
        </ChartsWrapper>
      </ChartsDataProvider>
    </Box>
  );
}

export function VitalsPage({ vital }: { vital: VitalType }) {
  const patient = usePatientReference() ?? '';
  const base = useHealthRecordBase();
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
      <PageHeading title={vital.title} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={`Loading ${vital.title.toLowerCase()}`} />}
      {data && measurements.length === 0 && (
        <EmptyState text={`No ${vital.title.toLowerCase()} measurements yet`} />
      )}
      {measurements.length > 0 && (
        <>
          <VitalsChart vital={vital} measurements={measurements} dueDate={dueDate} />
          <TableContainer tabIndex={0} aria-label={`${vital.title} measurements table`} sx={{ mt: 3 }}>
            <Table size="small" aria-label={`${vital.title} measurements`}>
              <TableHead>
                <TableRow>
                  <TableCell scope="col">Date</TableCell>
                  {dueDate && <TableCell scope="col">Week of pregnancy</TableCell>}
                  {vital.series.map((series) => (
                    <TableCell key={series.label} scope="col">
                      {series.label} ({vitalUnit(vital)})
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {[...measurements].reverse().map((m) => (
                  <TableRow key={m.id}>
                    <TableCell>
                      <ResourceLink to={`${base}/vitals/${m.id}`}>
                        <DateTimeDisplay value={m.effectiveDateTime} />
                      </ResourceLink>
                    </TableCell>
                    {dueDate && (
                      <TableCell>
                        {m.effectiveDateTime
                          ? (pregnancyWeek(dueDate, new Date(m.effectiveDateTime)) ?? '–')
                          : '–'}
                      </TableCell>
                    )}
                    {vital.series.map((series) => (
                      <TableCell key={series.label}>{displayValue(m, series, vital) ?? '–'}</TableCell>
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
