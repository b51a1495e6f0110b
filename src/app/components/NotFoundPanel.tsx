// 'Not found' panel for a signed-in path that names nothing: an unknown resource type under
// /:resourceType or an unknown signed-in route. A heading, one line and a way home.
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
      <title>Not found · Bloom</title>
      <Typography id={headingId} variant="h4" component="h1" gutterBottom>
        Not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {what ? `${what} does not exist here.` : 'There is nothing at this address.'}
      </Typography>
      <Link component={RouterLink} to="/">
        Go to the home page
      </Link>
    </Box>
  );
}
