// The four external pregnancy-information cards of SPEC §2 home: first, second, third trimester,
// labor and delivery. Each opens the Office on Women's Health page in a new tab.
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';

export const PREGNANCY_CARDS = [
  {
    title: 'First trimester',
    text: 'Weeks 1 to 13: early changes, first visits and tests.',
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#first',
  },
  {
    title: 'Second trimester',
    text: 'Weeks 14 to 27: feeling movement, the anatomy scan, glucose screening.',
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#second',
  },
  {
    title: 'Third trimester',
    text: 'Weeks 28 to 40: counting kicks, preparing for birth.',
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#third',
  },
  {
    title: 'Labor and delivery',
    text: 'Signs of labor, when to call, and what happens at birth.',
    href: 'https://www.womenshealth.gov/pregnancy/childbirth-and-beyond/labor-and-birth',
  },
] as const;

export function PregnancyCards() {
  return (
    <section aria-labelledby="pregnancy-info-heading">
      <Typography id="pregnancy-info-heading" variant="h2" sx={{ fontSize: '1.4rem', mt: 5, mb: 2 }}>
        Your pregnancy, stage by stage
      </Typography>
      <Grid container spacing={2}>
        {PREGNANCY_CARDS.map((card) => (
          <Grid key={card.title} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea
                component="a"
                href={card.href}
                target="_blank"
                rel="noopener noreferrer"
                sx={{ height: '100%' }}
              >
                <CardContent>
                  <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
                    {card.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {card.text}
                  </Typography>
                  <Typography variant="caption" component="span" sx={{ display: 'block', mt: 1 }}>
                    (opens in a new tab)
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </section>
  );
}
