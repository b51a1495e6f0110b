// Signed out there is no account menu: "English | Español" picks the language here, at once and for
// this device's next visits (rememberLocale); signed in, her record's choice takes over. Each name is
// in its own language (lang set), so a reader of either finds hers.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Fragment, type CSSProperties } from 'react';
import { activateLocale, rememberLocale } from '../i18n/i18n';
import { useLocale } from '../i18n/LocaleProvider';
import { LOCALE_NAMES, LOCALES, type Locale } from '../i18n/locale';

function choose(locale: Locale): void {
  rememberLocale(locale);
  void activateLocale(locale);
}

type Justify = CSSProperties['justifyContent'];

/** The language buttons; `label` names the group, `justify` places them (per breakpoint or not). */
export function LanguageChoice({
  label,
  justify,
}: {
  label: string;
  justify: Justify | Record<string, Justify>;
}) {
  const active = useLocale();
  return (
    <Stack
      role="group"
      aria-label={label}
      direction="row"
      sx={{ alignItems: 'center', justifyContent: justify, mt: 2 }}
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
