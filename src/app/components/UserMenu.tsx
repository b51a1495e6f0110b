// The signed-in user's menu in the header (SPEC §2 Navigation "User menu: Your profile, Settings (both go
// to account/profile), Sign out").
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ProfileResource } from '../../client';
import { givenName } from './profileName';

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
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': 'user-menu-button' } }}
      >
        <MenuItem component={RouterLink} to="/account/profile" onClick={() => setAnchor(null)}>
          Your profile
        </MenuItem>
        <MenuItem component={RouterLink} to="/account/profile" onClick={() => setAnchor(null)}>
          Settings
        </MenuItem>
        <MenuItem component={RouterLink} to="/signout" onClick={() => setAnchor(null)}>
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
}
