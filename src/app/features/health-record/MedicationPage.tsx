// health-record/medications/{medicationId} (SPEC §2): one MedicationRequest.
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router-dom';
import { MedicationDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { StatusBadge } from '../../components/StatusBadge';
import type { Message } from '../../i18n/catalog';
import { useT, type Translate } from '../../i18n/LocaleProvider';
import { DetailFields } from './DetailFields';
import { NotesList } from './NotesList';
import { conceptsText, conceptText, referenceText } from './observationValues';
import { PageHeading } from '../../components/PageHeading';
import { recordStrings as m } from './strings';

const INTENTS: Readonly<Record<string, Message>> = {
  proposal: m['intent.proposal'],
  plan: m['intent.plan'],
  order: m['intent.order'],
};

/** The request's intent in words; a code without words here shows as itself. */
function intentText(intent: string | null | undefined, t: Translate): string {
  if (!intent) return '';
  return Object.hasOwn(INTENTS, intent) ? t(INTENTS[intent]) : intent;
}

export function MedicationPage() {
  const { medicationId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(MedicationDetailDocument, {
    variables: { id: medicationId },
  });
  const t = useT();
  if (loading && !data) return <LoadingState label={t(m.loadingMedication)} />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const request = data?.MedicationRequest;
  if (!request) return <EmptyState text={t(m.medicationNotFound)} />;
  return (
    <>
      <PageHeading title={conceptText(request.medicationCodeableConcept) || t(m.medication)} />
      <DetailFields
        fields={[
          [t(m.status), request.status ? <StatusBadge status={request.status} kind="medication" /> : ''],
          [
            t(m.dosage),
            (request.dosageInstruction ?? [])
              .map((d) => d?.text)
              .filter(Boolean)
              .join('; '),
          ],
          [t(m.prescribed), <DateTimeDisplay key="a" value={request.authoredOn} />],
          [t(m.prescriber), referenceText(request.requester ? [request.requester] : [])],
          [t(m.reason), conceptsText(request.reasonCode)],
          [t(m.intent), intentText(request.intent, t)],
        ]}
      />
      <NotesList notes={request.note} />
    </>
  );
}
