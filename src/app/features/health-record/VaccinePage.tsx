// health-record/vaccines/{vaccineId} (SPEC §2): one Immunization.
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { VaccineDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { StatusBadge } from '../../components/StatusBadge';
import { DetailFields } from './DetailFields';
import { NotesList } from './NotesList';
import { conceptText, quantityText, referenceText } from './observationValues';
import { PageHeading } from '../../components/PageHeading';
import { splitVaccines } from './vaccineSplit';

export function VaccinePage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const { vaccineId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(VaccineDetailDocument, { variables: { id: vaccineId } });
  if (loading && !data) return <LoadingState label="Loading vaccine" />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const vaccine = data?.Immunization;
  if (!vaccine) return <EmptyState text="Vaccine not found" />;
  const upcoming = splitVaccines([vaccine], now).upcoming.length > 0;
  return (
    <>
      <PageHeading title={conceptText(vaccine.vaccineCode) || 'Vaccine'} />
      <DetailFields
        fields={[
          [
            'Status',
            vaccine.status ? <StatusBadge status={vaccine.status} kind="vaccine" upcoming={upcoming} /> : '',
          ],
          ['Reason', conceptText(vaccine.statusReason)],
          ['Date', <DateTimeDisplay key="d" value={vaccine.occurrenceDateTime} />],
          ['Dose', quantityText(vaccine.doseQuantity)],
          ['Site', conceptText(vaccine.site)],
          ['Route', conceptText(vaccine.route)],
          ['Lot number', vaccine.lotNumber ?? ''],
          ['Location', referenceText(vaccine.location ? [vaccine.location] : [])],
          ['Given by', referenceText((vaccine.performer ?? []).map((p) => p?.actor ?? null))],
        ]}
      />
      <NotesList notes={vaccine.note} />
    </>
  );
}
