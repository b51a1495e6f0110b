// The panel for a signed-in path that names nothing: an unknown resource type under /:resourceType or
// an unknown signed-in route. It speaks to the patient: a heading, what may have happened, a way home.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface NotFoundPanelProps {
  /** What was looked for, shown in the text (for example 'The resource type "Foo"'). */
  readonly what?: string;
}

export function NotFoundPanel({ what }: NotFoundPanelProps) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ py: 6, px: 2, textAlign: 'center' }}>
      {/* Every route has its page title: an unknown route has its own. */}
      <title>Page not found · Bloom</title>
      <Typography id={headingId} variant="h4" component="h1" gutterBottom>
        We couldn&apos;t find that page
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {what
          ? `${what} does not exist here.`
          : 'The address may have a typo, or the page may have moved. The menu above leads to every part of the app.'}
      </Typography>
      <Link component={RouterLink} to="/">
        Go to the home page
      </Link>
    </Box>
  );
}
