// health-record/lab-results (SPEC §2): every DiagnosticReport of the patient (name, date, status),
// newest first, 50 a page with Load more.
import { useQuery } from '@apollo/client/react';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LabResultListDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
import { LoadMore } from './LoadMore';
import { conceptText } from './observationValues';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { recordStrings as m } from './strings';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';

export const LAB_RESULTS_PAGE_SIZE = 50;

export function LabResultsPage() {
  const patient = usePatientReference() ?? '';
  const base = useHealthRecordBase();
  const t = useT();
  const { data, loading, error, refetch, fetchMore } = useQuery(LabResultListDocument, {
    variables: { patient, count: LAB_RESULTS_PAGE_SIZE, offset: 0 },
    skip: !patient,
    notifyOnNetworkStatusChange: true,
  });
  const connection = data?.DiagnosticReportConnection;
  const reports = (connection?.edges ?? []).flatMap((edge) => (edge?.resource ? [edge.resource] : []));
  return (
    <>
      <PageHeading title={t(m.labResults)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(m.loadingLabResults)} />}
      {data && reports.length === 0 && <EmptyState text={t(m.noLabResults)} />}
      {reports.length > 0 && (
        <List aria-label={t(m.labResultsList)}>
          {reports.map((report) => (
            <ListItem key={report.id} divider sx={{ px: 0 }}>
              <Stack
                direction="row"
                spacing={2}
                sx={{
                  width: '100%',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  flexWrap: 'wrap',
                }}
              >
                <ResourceLink to={`${base}/lab-results/${report.id}`}>
                  {conceptText(report.code) || t(m.labReport)}
                </ResourceLink>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Typography variant="body2" color="text.secondary">
                    <DateTimeDisplay value={report.effectiveDateTime ?? report.issued} />
                  </Typography>
                  {report.status && <StatusBadge status={report.status} kind="result" />}
                </Stack>
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
      <LoadMore
        loaded={reports.length}
        total={connection?.count}
        loading={loading}
        onLoadMore={() =>
          void fetchMore({
            variables: { offset: reports.length },
            updateQuery: (previous, { fetchMoreResult }) => ({
              DiagnosticReportConnection: appendPage(
                previous.DiagnosticReportConnection,
                fetchMoreResult.DiagnosticReportConnection,
              ),
            }),
          })
        }
      />
    </>
  );
}
