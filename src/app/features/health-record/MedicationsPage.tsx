// health-record/medications (SPEC §2): the patient's MedicationRequests, 50 a page with Load more.
import { useQuery } from '@apollo/client/react';
import { MedicationListDocument } from '../../../graphql';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { useT } from '../../i18n/LocaleProvider';
import { LoadMore } from './LoadMore';
import { conceptText } from './observationValues';
import { appendPage } from './pagedConnection';
import { PageHeading } from '../../components/PageHeading';
import { ResourceRows } from './ResourceRows';
import { recordStrings as m } from './strings';
import { useHealthRecordBase, usePatientReference } from './usePatientReference';

export const MEDICATIONS_PAGE_SIZE = 50;

export function MedicationsPage() {
  const patient = usePatientReference() ?? '';
  const base = useHealthRecordBase();
  const t = useT();
  const { data, loading, error, refetch, fetchMore } = useQuery(MedicationListDocument, {
    variables: { patient, count: MEDICATIONS_PAGE_SIZE, offset: 0 },
    skip: !patient,
    notifyOnNetworkStatusChange: true,
  });
  const connection = data?.MedicationRequestConnection;
  const requests = (connection?.edges ?? []).flatMap((edge) => (edge?.resource ? [edge.resource] : []));
  return (
    <>
      <PageHeading title={t(m.medications)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(m.loadingMedications)} />}
      {data && requests.length === 0 && <EmptyState text={t(m.noMedications)} />}
      {requests.length > 0 && (
        <ResourceRows
          kind="medication"
          label={t(m.medications)}
          rows={requests.map((request) => ({
            key: request.id ?? '',
            href: `${base}/medications/${request.id}`,
            title: conceptText(request.medicationCodeableConcept) || t(m.medication),
            detail: request.dosageInstruction?.[0]?.text,
            date: request.authoredOn,
            status: request.status,
          }))}
        />
      )}
      <LoadMore
        loaded={requests.length}
        total={connection?.count}
        loading={loading}
        onLoadMore={() =>
          void fetchMore({
            variables: { offset: requests.length },
            updateQuery: (previous, { fetchMoreResult }) => ({
              MedicationRequestConnection: appendPage(
                previous.MedicationRequestConnection,
                fetchMoreResult.MedicationRequestConnection,
              ),
            }),
          })
        }
      />
    </>
  );
}
