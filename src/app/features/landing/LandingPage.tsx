// Signed-out landing page (SPEC §2 "/"): hero text, an illustration, and the Log in / Sign up actions.
// The header and footer come from the shared layout.
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LinkButton } from '../../components/LinkButton';
import { useT } from '../../i18n/LocaleProvider';
import { blush } from '../../theme';
import { FeatureList } from './FeatureList';
import { LanguageChoice } from '../../components/LanguageChoice';
import { landingStrings } from './strings';

/** The hero image's English alt text. */
export const heroImageAlt = landingStrings.heroAlt.message;

export function LandingPage() {
  const t = useT();
  return (
    <>
      {/* React 19 hoists <title> into the document head. */}
      <title>{t(landingStrings.title)}</title>
      <Box component="section" aria-labelledby="landing-title" sx={{ bgcolor: blush }}>
        <Container
          maxWidth="lg"
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', md: 'row' },
            alignItems: 'center',
            gap: { xs: 3, md: 6 },
            py: { xs: 5, md: 9 },
          }}
        >
          <Box sx={{ flex: 1, textAlign: { xs: 'center', md: 'left' } }}>
            <Typography
              variant="overline"
              component="p"
              sx={{ color: 'secondary.main', fontWeight: 700, letterSpacing: '0.12em' }}
            >
              {t(landingStrings.overline)}
            </Typography>
            <Typography
              id="landing-title"
              variant="h1"
              sx={{ fontSize: { xs: '2.1rem', md: '2.75rem' }, mb: 2 }}
            >
              {t(landingStrings.heading)}
            </Typography>
            <Typography
              variant="body1"
              color="text.secondary"
              sx={{
                fontSize: { xs: '1.05rem', md: '1.2rem' },
                maxWidth: 520,
                mx: { xs: 'auto', md: 0 },
                mb: 4,
              }}
            >
              {t(landingStrings.intro)}
            </Typography>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ justifyContent: { xs: 'center', md: 'flex-start' } }}
            >
              <LinkButton to="/register" variant="contained" size="large">
                {t(landingStrings.signUp)}
              </LinkButton>
              <LinkButton to="/signin" variant="outlined" size="large" sx={{ bgcolor: 'background.paper' }}>
                {t(landingStrings.logIn)}
              </LinkButton>
            </Stack>
            <LanguageChoice label={t(landingStrings.language)} justify={{ xs: 'center', md: 'flex-start' }} />
          </Box>
          <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', width: '100%' }}>
            <Box
              component="img"
              src="/bloom-hero.svg"
              alt={t(landingStrings.heroAlt)}
              width={480}
              height={400}
              sx={{ width: '100%', maxWidth: { xs: 320, md: 480 }, height: 'auto' }}
            />
          </Box>
        </Container>
      </Box>
      <FeatureList />
    </>
  );
}
