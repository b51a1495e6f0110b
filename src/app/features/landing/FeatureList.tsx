// What a patient gets after signing up (SPEC §1), in three short cards under the hero.
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

const features = [
  {
    title: 'Your health record',
    text: 'Lab results with reference ranges, medications, vaccines and vitals, explained in plain words.',
  },
  {
    title: 'Messages with your care team',
    text: 'Ask a question between visits and keep the whole conversation in one thread.',
  },
  {
    title: 'Appointments that fit',
    text: 'Pick a day and time that works for you and send a request in a few taps.',
  },
] as const;

export function FeatureList() {
  return (
    <Container
      component="section"
      aria-labelledby="features-title"
      maxWidth="lg"
      sx={{ py: { xs: 5, md: 8 } }}
    >
      <Typography id="features-title" variant="h2" align="center" sx={{ mb: 4 }}>
        Everything for the months ahead
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
          <Paper component="li" key={feature.title} variant="outlined" sx={{ p: 3, borderRadius: 3 }}>
            <Typography variant="h3" component="h3" sx={{ mb: 1, color: 'primary.main' }}>
              {feature.title}
            </Typography>
            <Typography variant="body1" color="text.secondary">
              {feature.text}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Container>
  );
}
