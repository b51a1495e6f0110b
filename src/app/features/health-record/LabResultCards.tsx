// The results of a report stacked for phones: one card per result with the critical flag first, so
// nothing of it lies beyond a 375 px screen (the seven-column table needs ~800 px).
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { DetailFields } from './DetailFields';
import { isCritical } from './interpretation';
import {
  conceptsText,
  conceptText,
  observationValueText,
  rangesText,
  referenceText,
} from './observationValues';
import type { ResultObservation } from './resultObservation';

export const CRITICAL_BG = '#fde6e6';
export const CRITICAL_FG = '#8a1212';

export function LabResultCards({ results }: { results: readonly ResultObservation[] }) {
  return (
    <List aria-label="Results" sx={{ py: 0 }}>
      {results.map((result) => {
        const critical = isCritical(result.interpretation);
        return (
          <ListItem
            key={result.id}
            data-critical={critical || undefined}
            divider
            sx={{
              display: 'block',
              px: 1.5,
              py: 1.5,
              overflowWrap: 'anywhere',
              ...(critical ? { bgcolor: CRITICAL_BG, borderLeft: 4, borderColor: CRITICAL_FG } : {}),
            }}
          >
            {critical && (
              <Typography
                component="p"
                sx={{ color: CRITICAL_FG, fontWeight: 700, fontSize: '0.8rem', textTransform: 'uppercase' }}
              >
                Critical
              </Typography>
            )}
            <Typography component="h2" sx={{ fontWeight: 600, fontSize: '1rem' }}>
              <ResourceLink to={{ resourceType: 'Observation', id: result.id }}>
                {conceptText(result.code) || 'Result'}
              </ResourceLink>
            </Typography>
            <Box sx={critical ? { color: CRITICAL_FG, fontWeight: 700 } : undefined}>
              <DetailFields
                fields={[
                  ['Value', observationValueText(result)],
                  ['Interpretation', conceptsText(result.interpretation)],
                ]}
              />
            </Box>
            <DetailFields
              fields={[
                ['Reference range', rangesText(result.referenceRange)],
                ['Category', conceptsText(result.category)],
                ['Performer', referenceText(result.performer)],
                ['Status', result.status ? <StatusBadge status={result.status} kind="result" /> : ''],
              ]}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
