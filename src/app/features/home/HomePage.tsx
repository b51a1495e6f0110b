// The signed-in home (SPEC §2 "/" signed in): greets the patient by name, 'Send Message' (/messages),
// where the pregnancy stands and what is next, and the four pregnancy-information cards.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ProfileResource } from '../../../client';
import { givenName } from '../../components/profileName';
import { useT } from '../../i18n/LocaleProvider';
import { PregnancyCards } from './PregnancyCards';
import { homeStrings as m } from './strings';
import { WhatIsNext } from './WhatIsNext';

export function HomePage({ profile, now: givenNow }: { profile: ProfileResource; now?: Date }) {
  const name = givenName(profile);
  const t = useT();
  // One "now" per visit, so the summary query's variables stay the same across renders.
  const [now] = useState(() => givenNow ?? new Date());
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, sm: 6 } }}>
      <title>{t(m.title)}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', sm: '2.4rem' } }}>
        {name ? t(m.greeting, { name }) : t(m.greetingNoName)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t(m.intro)}
      </Typography>
      <Button component={RouterLink} to="/messages" variant="contained" size="large">
        {t(m.sendMessage)}
      </Button>
      {profile.resourceType === 'Patient' && profile.id && (
        <WhatIsNext patient={`Patient/${profile.id}`} now={now} />
      )}
      <PregnancyCards />
    </Box>
  );
}

export default HomePage;
