// The four external pregnancy-information cards of SPEC §2 home: first, second, third trimester,
// labor and delivery. Each opens the Office on Women's Health page in a new tab.
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useT } from '../../i18n/LocaleProvider';
import { homeStrings as m } from './strings';

export const PREGNANCY_CARDS = [
  {
    title: m.firstTrimester,
    text: m.firstTrimesterText,
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#first',
  },
  {
    title: m.secondTrimester,
    text: m.secondTrimesterText,
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#second',
  },
  {
    title: m.thirdTrimester,
    text: m.thirdTrimesterText,
    href: 'https://www.womenshealth.gov/pregnancy/youre-pregnant-now-what/stages-pregnancy#third',
  },
  {
    title: m.labor,
    text: m.laborText,
    href: 'https://www.womenshealth.gov/pregnancy/childbirth-and-beyond/labor-and-birth',
  },
] as const;

export function PregnancyCards() {
  const t = useT();
  return (
    <section aria-labelledby="pregnancy-info-heading">
      <Typography id="pregnancy-info-heading" variant="h2" sx={{ fontSize: '1.4rem', mt: 5, mb: 2 }}>
        {t(m.stagesHeading)}
      </Typography>
      <Grid container spacing={2}>
        {PREGNANCY_CARDS.map((card) => (
          <Grid key={card.href} size={{ xs: 12, sm: 6, md: 3 }}>
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
                    {t(card.title)}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t(card.text)}
                  </Typography>
                  <Typography variant="caption" component="span" sx={{ display: 'block', mt: 1 }}>
                    {t(m.opensNewTab)}
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
