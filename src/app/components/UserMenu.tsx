// The signed-in user's menu in the header (SPEC §2 Navigation "User menu: Your profile, Settings (both go
// to account/profile), Sign out"), then the switch to the app's other language.
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import { useState } from 'react';
import type { ProfileResource } from '../../client';
import { LazyLinkMenu } from './LazyLinkMenu';
import { useLocale, useT } from '../i18n/LocaleProvider';
import { LOCALE_NAMES, LOCALES } from '../i18n/locale';
import { useLanguageSwitch } from '../i18n/useLanguageSwitch';
import { useNotify } from './Notifications';
import { givenName } from './profileName';
import { shellStrings } from './strings';

const USER_MENU = [
  { label: shellStrings.yourProfile, to: '/account/profile' },
  { label: shellStrings.settings, to: '/account/profile' },
  { label: shellStrings.signOut, to: '/signout' },
] as const;

export function UserMenu({ profile }: { profile: ProfileResource }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const t = useT();
  const locale = useLocale();
  const switchLanguage = useLanguageSwitch();
  const notify = useNotify();
  const name = givenName(profile) ?? t(shellStrings.account);
  // The other languages, each named in itself (lang set), so a reader of either finds hers.
  const languages = LOCALES.filter((other) => other !== locale).map((other) => ({
    label: LOCALE_NAMES[other],
    lang: other,
    onSelect: () => {
      switchLanguage(other).catch(() => notify(t(shellStrings.languageNotSaved), 'error'));
    },
  }));
  return (
    <>
      <Button
        id="user-menu-button"
        aria-haspopup="menu"
        aria-controls={anchor ? 'user-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<Avatar sx={{ width: 28, height: 28, fontSize: '0.9rem' }}>{name.charAt(0)}</Avatar>}
        sx={{ textTransform: 'none' }}
      >
        {name}
      </Button>
      <LazyLinkMenu
        id="user-menu"
        labelledBy="user-menu-button"
        anchor={anchor}
        items={USER_MENU.map((item) => ({ label: t(item.label), to: item.to }))}
        actions={languages}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}
