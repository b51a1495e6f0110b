// health-record/medications/{medicationId} (SPEC §2): one MedicationRequest.
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router-dom';
import { MedicationDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { StatusBadge } from '../../components/StatusBadge';
import { DetailFields } from './DetailFields';
import { NotesList } from './NotesList';
import { conceptsText, conceptText, referenceText } from './observationValues';
import { PageHeading } from '../../components/PageHeading';

export function MedicationPage() {
  const { medicationId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(MedicationDetailDocument, {
    variables: { id: medicationId },
  });
  if (loading && !data) return <LoadingState label="Loading medication" />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const request = data?.MedicationRequest;
  if (!request) return <EmptyState text="Medication not found" />;
  return (
    <>
      <PageHeading title={conceptText(request.medicationCodeableConcept) || 'Medication'} />
      <DetailFields
        fields={[
          ['Status', request.status ? <StatusBadge status={request.status} kind="medication" /> : ''],
          [
            'Dosage',
            (request.dosageInstruction ?? [])
              .map((d) => d?.text)
              .filter(Boolean)
              .join('; '),
          ],
          ['Prescribed', <DateTimeDisplay key="a" value={request.authoredOn} />],
          ['Prescriber', referenceText(request.requester ? [request.requester] : [])],
          ['Reason', conceptsText(request.reasonCode)],
          ['Intent', request.intent ?? ''],
        ]}
      />
      <NotesList notes={request.note} />
    </>
  );
}
