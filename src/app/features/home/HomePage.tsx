// The signed-in home (SPEC §2 "/" signed in), minimal for issue #3: greets the patient by name and
// offers 'Send Message' (/messages). Issue #7 adds the pregnancy-information cards.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { ProfileResource } from '../../../client';

/** The first given name of a person profile, else its display text. */
export function givenName(profile: ProfileResource): string | undefined {
  if (profile.resourceType === 'ClientApplication' || profile.resourceType === 'Bot') return profile.name;
  const name = profile.name?.[0];
  return name?.given?.[0] ?? name?.text ?? name?.family;
}

export function HomePage({ profile }: { profile: ProfileResource }) {
  const name = givenName(profile);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, sm: 6 } }}>
      <title>Home · Bloom</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', sm: '2.4rem' } }}>
        {name ? `Hello ${name}` : 'Hello'}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Your care team is here for you. Questions about your pregnancy? Send us a message.
      </Typography>
      <Button component={RouterLink} to="/messages" variant="contained" size="large">
        Send Message
      </Button>
    </Box>
  );
}
