// health-record/vaccines (SPEC §2; §4 Lists): the patient's Immunizations split into upcoming
// (occurrence later than now) and past; 'No upcoming vaccines available' when none is due.
import { useQuery } from '@apollo/client/react';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { VaccineListDocument } from '../../../graphql';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { useT } from '../../i18n/LocaleProvider';
import { LoadMore } from './LoadMore';
import { conceptText } from './observationValues';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { ResourceRows, type ResourceRow } from './ResourceRows';
import { recordStrings as m } from './strings';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';
import { splitVaccines } from './vaccineSplit';

export const VACCINES_PAGE_SIZE = 100;

export function VaccinesPage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const patient = usePatientReference() ?? '';
  const base = useHealthRecordBase();
  const t = useT();
  const { data, loading, error, refetch, fetchMore } = useQuery(VaccineListDocument, {
    variables: { patient, count: VACCINES_PAGE_SIZE, offset: 0 },
    skip: !patient,
    notifyOnNetworkStatusChange: true,
  });
  const connection = data?.ImmunizationConnection;
  const vaccines = (connection?.edges ?? []).flatMap((edge) => (edge?.resource ? [edge.resource] : []));
  const { upcoming, past } = splitVaccines(vaccines, now);
  const rows = (list: typeof vaccines, upcomingList: boolean): ResourceRow[] =>
    list.map((vaccine) => ({
      key: vaccine.id ?? '',
      href: `${base}/vaccines/${vaccine.id}`,
      title: conceptText(vaccine.vaccineCode) || t(m.vaccine),
      date: vaccine.occurrenceDateTime,
      status: vaccine.status,
      upcoming: upcomingList,
    }));
  return (
    <>
      <PageHeading title={t(m.vaccines)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(m.loadingVaccines)} />}
      {data && (
        <>
          <Typography variant="h2" sx={{ fontSize: '1.3rem', mt: 2 }}>
            {t(m.upcoming)}
          </Typography>
          {upcoming.length === 0 ? (
            <EmptyState text={t(m.noUpcoming)} />
          ) : (
            <ResourceRows label={t(m.upcomingVaccines)} kind="vaccine" rows={rows(upcoming, true)} />
          )}
          <Typography variant="h2" sx={{ fontSize: '1.3rem', mt: 3 }}>
            {t(m.past)}
          </Typography>
          {past.length === 0 ? (
            <EmptyState text={t(m.noPast)} />
          ) : (
            <ResourceRows label={t(m.pastVaccines)} kind="vaccine" rows={rows(past, false)} />
          )}
        </>
      )}
      <LoadMore
        loaded={vaccines.length}
        total={connection?.count}
        loading={loading}
        onLoadMore={() =>
          void fetchMore({
            variables: { offset: vaccines.length },
            updateQuery: (previous, { fetchMoreResult }) => ({
              ImmunizationConnection: appendPage(
                previous.ImmunizationConnection,
                fetchMoreResult.ImmunizationConnection,
              ),
            }),
          })
        }
      />
    </>
  );
}
