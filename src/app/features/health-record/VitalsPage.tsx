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
import { LoadMore } from './LoadMore';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';
import { VitalEntryForm } from './VitalEntryForm';
import { displayValue, pregnancyWeek, vitalUnit } from './vitalDisplay';
import { VitalsChart } from './VitalsChart';
import type { VitalType } from './vitalTypes';

export const VITALS_PAGE_SIZE = 500;

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
