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

export function ObservationPage() {
  const params = useParams();
  const id = params.observationId ?? params.measurementId ?? '';
  const { data, loading, error, refetch } = useQuery(ObservationDetailDocument, { variables: { id } });
  if (loading && !data) return <LoadingState label="Loading observation" />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  const observation = data?.Observation;
  if (!observation) return <EmptyState text="Observation not found" />;
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
      <PageHeading title={conceptText(observation.code) || 'Observation'} />
      <DetailFields
        fields={[
          ['Value', observationValueText(observation) || components],
          ['Reference range', rangesText(observation.referenceRange)],
          [
            'Interpretation',
            critical ? (
              <Box
                component="span"
                data-critical="true"
                sx={{ color: '#8a1212', bgcolor: '#fde6e6', fontWeight: 700, px: 0.5 }}
              >
                {conceptsText(observation.interpretation)} (critical)
              </Box>
            ) : (
              conceptsText(observation.interpretation)
            ),
          ],
          ['Category', conceptsText(observation.category)],
          ['Performer', referenceText(observation.performer)],
          ['Status', observation.status ? <StatusBadge status={observation.status} kind="result" /> : ''],
          ['Date', <DateTimeDisplay key="d" value={observation.effectiveDateTime ?? observation.issued} />],
        ]}
      />
      <NotesList notes={observation.note} />
      {members.length > 0 && (
        <section aria-labelledby="members-heading">
          <Typography id="members-heading" variant="h2" sx={{ fontSize: '1.2rem', mt: 3 }}>
            Members
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
