// A labelled list of resources: each row a link with its date and status badge.
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import type { StatusKind } from '../../components/statusWords';

export interface ResourceRow {
  readonly key: string;
  readonly href: string;
  readonly title: string;
  readonly date?: string | null;
  readonly detail?: string | null;
  readonly status?: string | null;
  /** The row's date lies ahead (an upcoming vaccine): its status reads as planned. */
  readonly upcoming?: boolean;
}

export function ResourceRows({
  label,
  rows,
  kind,
}: {
  label: string;
  rows: readonly ResourceRow[];
  kind?: StatusKind;
}) {
  return (
    <List aria-label={label}>
      {rows.map((row) => (
        <ListItem key={row.key} divider sx={{ px: 0 }}>
          <Stack
            direction="row"
            spacing={2}
            sx={{ width: '100%', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
          >
            <div>
              <ResourceLink to={row.href}>{row.title}</ResourceLink>
              {row.detail && (
                <Typography variant="body2" color="text.secondary">
                  {row.detail}
                </Typography>
              )}
            </div>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" color="text.secondary">
                <DateTimeDisplay value={row.date} />
              </Typography>
              {row.status && <StatusBadge status={row.status} kind={kind} upcoming={row.upcoming} />}
            </Stack>
          </Stack>
        </ListItem>
      ))}
    </List>
  );
}
