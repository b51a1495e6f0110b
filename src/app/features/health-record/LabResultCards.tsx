// The results of a report stacked for phones: one card per result with the critical flag first, so
// nothing of it lies beyond a 375 px screen (the seven-column table needs ~800 px).
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
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
import { recordStrings as m } from './strings';

export const CRITICAL_BG = '#fde6e6';
export const CRITICAL_FG = '#8a1212';

export function LabResultCards({ results }: { results: readonly ResultObservation[] }) {
  const t = useT();
  return (
    <List aria-label={t(m.results)} sx={{ py: 0 }}>
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
                {t(m.critical)}
              </Typography>
            )}
            <Typography component="h2" sx={{ fontWeight: 600, fontSize: '1rem' }}>
              <ResourceLink to={{ resourceType: 'Observation', id: result.id }}>
                {conceptText(result.code) || t(m.result)}
              </ResourceLink>
            </Typography>
            <Box sx={critical ? { color: CRITICAL_FG, fontWeight: 700 } : undefined}>
              <DetailFields
                fields={[
                  [t(m.value), observationValueText(result)],
                  [t(m.interpretation), conceptsText(result.interpretation)],
                ]}
              />
            </Box>
            <DetailFields
              fields={[
                [t(m.referenceRange), rangesText(result.referenceRange)],
                [t(m.category), conceptsText(result.category)],
                [t(m.performer), referenceText(result.performer)],
                [t(m.status), result.status ? <StatusBadge status={result.status} kind="result" /> : ''],
              ]}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
