// The signed-in user's menu in the header (SPEC §2 Navigation "User menu: Your profile, Settings (both go
// to account/profile), Sign out").
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import { useState } from 'react';
import type { ProfileResource } from '../../client';
import { LazyLinkMenu } from './LazyLinkMenu';
import { givenName } from './profileName';

const USER_MENU = [
  { label: 'Your profile', to: '/account/profile' },
  { label: 'Settings', to: '/account/profile' },
  { label: 'Sign out', to: '/signout' },
] as const;

export function UserMenu({ profile }: { profile: ProfileResource }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = givenName(profile) ?? 'Account';
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
        items={USER_MENU}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}
