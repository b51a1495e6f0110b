// The panel for a signed-in path that names nothing: an unknown resource type under /:resourceType or
// an unknown signed-in route. It speaks to the patient: a heading, what may have happened, a way home.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings as m } from './strings';

export interface NotFoundPanelProps {
  /** What was looked for, shown in the text (for example 'The resource type "Foo"'). */
  readonly what?: string;
}

export function NotFoundPanel({ what }: NotFoundPanelProps) {
  const headingId = useId();
  const t = useT();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ py: 6, px: 2, textAlign: 'center' }}>
      {/* Every route has its page title: an unknown route has its own. */}
      <title>{t(m.notFoundTitle)}</title>
      <Typography id={headingId} variant="h4" component="h1" gutterBottom>
        {t(m.notFoundHeading)}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {what ? t(m.notFoundWhat, { what }) : t(m.notFoundHint)}
      </Typography>
      <Link component={RouterLink} to="/">
        {t(m.notFoundHome)}
      </Link>
    </Box>
  );
}
