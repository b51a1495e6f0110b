// Observation/{observationId} and health-record/vitals/{measurementId} (SPEC §2): value (or the
// components, e.g. systolic and diastolic), reference range, interpretation (critical codes
// highlighted), category, performer, notes and members.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router-dom';
import { ObservationDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
import { DetailFields } from './DetailFields';
import { isCritical } from './interpretation';
import { NotesList } from './NotesList';
import {
  conceptsText,
  conceptText,
  observationValueText,
  quantityText,
  rangesText,
  referenceText,
} from './observationValues';
import { PageHeading } from '../../components/PageHeading';
import { recordStrings as m } from './strings';

export function ObservationPage() {
  const params = useParams();
  const id = params.observationId ?? params.measurementId ?? '';
  const { data, loading, error, refetch } = useQuery(ObservationDetailDocument, { variables: { id } });
  const t = useT();
  if (loading && !data) return <LoadingState label={t(m.loadingObservation)} />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const observation = data?.Observation;
  if (!observation) return <EmptyState text={t(m.observationNotFound)} />;
  const components = (observation.component ?? [])
    .map((component) =>
      component ? `${conceptText(component.code)}: ${quantityText(component.valueQuantity)}` : '',
    )
    .filter(Boolean)
    .join(', ');
  const critical = isCritical(observation.interpretation);
  const members = (observation.hasMember ?? []).flatMap((member) => (member?.reference ? [member] : []));
  return (
    <>
      <PageHeading title={conceptText(observation.code) || t(m.observation)} />
      <DetailFields
        fields={[
          [t(m.value), observationValueText(observation) || components],
          [t(m.referenceRange), rangesText(observation.referenceRange)],
          [
            t(m.interpretation),
            critical ? (
              <Box
                component="span"
                data-critical="true"
                sx={{ color: '#8a1212', bgcolor: '#fde6e6', fontWeight: 700, px: 0.5 }}
              >
                {t(m.criticalValue, { value: conceptsText(observation.interpretation) })}
              </Box>
            ) : (
              conceptsText(observation.interpretation)
            ),
          ],
          [t(m.category), conceptsText(observation.category)],
          [t(m.performer), referenceText(observation.performer)],
          [t(m.status), observation.status ? <StatusBadge status={observation.status} kind="result" /> : ''],
          [
            t(m.date),
            <DateTimeDisplay key="d" value={observation.effectiveDateTime ?? observation.issued} />,
          ],
        ]}
      />
      <NotesList notes={observation.note} />
      {members.length > 0 && (
        <section aria-labelledby="members-heading">
          <Typography id="members-heading" variant="h2" sx={{ fontSize: '1.2rem', mt: 3 }}>
            {t(m.members)}
          </Typography>
          <List>
            {members.map((member) => (
              <ListItem key={member.reference} sx={{ px: 0 }}>
                <ResourceLink to={member}>{member.display ?? member.reference}</ResourceLink>
              </ListItem>
            ))}
          </List>
        </section>
      )}
    </>
  );
}
