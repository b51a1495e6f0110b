// health-record/vaccines/{vaccineId} (SPEC §2): one Immunization.
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { VaccineDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
import { DetailFields } from './DetailFields';
import { NotesList } from './NotesList';
import { conceptText, quantityText, referenceText } from './observationValues';
import { PageHeading } from '../../components/PageHeading';
import { recordStrings as m } from './strings';
import { splitVaccines } from './vaccineSplit';

export function VaccinePage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const { vaccineId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(VaccineDetailDocument, { variables: { id: vaccineId } });
  const t = useT();
  if (loading && !data) return <LoadingState label={t(m.loadingVaccine)} />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const vaccine = data?.Immunization;
  if (!vaccine) return <EmptyState text={t(m.vaccineNotFound)} />;
  const upcoming = splitVaccines([vaccine], now).upcoming.length > 0;
  return (
    <>
      <PageHeading title={conceptText(vaccine.vaccineCode) || t(m.vaccine)} />
      <DetailFields
        fields={[
          [
            t(m.status),
            vaccine.status ? <StatusBadge status={vaccine.status} kind="vaccine" upcoming={upcoming} /> : '',
          ],
          [t(m.reason), conceptText(vaccine.statusReason)],
          [t(m.date), <DateTimeDisplay key="d" value={vaccine.occurrenceDateTime} />],
          [t(m.dose), quantityText(vaccine.doseQuantity)],
          [t(m.site), conceptText(vaccine.site)],
          [t(m.route), conceptText(vaccine.route)],
          [t(m.lotNumber), vaccine.lotNumber ?? ''],
          [t(m.location), referenceText(vaccine.location ? [vaccine.location] : [])],
          [t(m.givenBy), referenceText((vaccine.performer ?? []).map((p) => p?.actor ?? null))],
        ]}
      />
      <NotesList notes={vaccine.note} />
    </>
  );
}
