// What a patient gets after signing up (SPEC §1), in three short cards under the hero.
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useT } from '../../i18n/LocaleProvider';
import { landingStrings } from './strings';

const features = [
  { title: landingStrings.recordTitle, text: landingStrings.recordText },
  { title: landingStrings.messagesTitle, text: landingStrings.messagesText },
  { title: landingStrings.appointmentsTitle, text: landingStrings.appointmentsText },
] as const;

export function FeatureList() {
  const t = useT();
  return (
    <Container
      component="section"
      aria-labelledby="features-title"
      maxWidth="lg"
      sx={{ py: { xs: 5, md: 8 } }}
    >
      <Typography id="features-title" variant="h2" align="center" sx={{ mb: 4 }}>
        {t(landingStrings.featuresTitle)}
      </Typography>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
        }}
      >
        {features.map((feature) => (
          <Paper component="li" key={feature.title.id} variant="outlined" sx={{ p: 3, borderRadius: 3 }}>
            <Typography variant="h3" component="h3" sx={{ mb: 1, color: 'primary.main' }}>
              {t(feature.title)}
            </Typography>
            <Typography variant="body1" color="text.secondary">
              {t(feature.text)}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Container>
  );
}
