// Signed out there is no account menu: "English | Español" picks the language here, at once and for
// this device's next visits (rememberLocale); signed in, her record's choice takes over. Each name is
// in its own language (lang set), so a reader of either finds hers.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Fragment } from 'react';
import { activateLocale, rememberLocale } from '../../i18n/i18n';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../i18n/locale';
import { landingStrings } from './strings';

function choose(locale: Locale): void {
  rememberLocale(locale);
  void activateLocale(locale);
}

export function LanguageChoice() {
  const active = useLocale();
  const t = useT();
  return (
    <Stack
      role="group"
      aria-label={t(landingStrings.language)}
      direction="row"
      sx={{ alignItems: 'center', justifyContent: { xs: 'center', md: 'flex-start' }, mt: 2 }}
    >
      {LOCALES.map((locale, index) => (
        <Fragment key={locale}>
          {index > 0 && <span aria-hidden="true">|</span>}
          <Button
            lang={locale}
            aria-pressed={locale === active}
            onClick={() => choose(locale)}
            sx={{ textTransform: 'none', fontWeight: locale === active ? 700 : 400, minWidth: 0 }}
          >
            {LOCALE_NAMES[locale]}
          </Button>
        </Fragment>
      ))}
    </Stack>
  );
}
