// The header's main navigation (SPEC §2 Navigation: Health Record, Messages, Get Care, and Forms,
// the clinic's questionnaires). Below 768 px
// (SPEC §9) the three links collapse into a Menu button.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { LazyLinkMenu } from './LazyLinkMenu';
import { DESKTOP_QUERY } from './SideMenu';

export const MAIN_NAV = [
  { label: 'Health Record', to: '/health-record' },
  { label: 'Messages', to: '/messages' },
  { label: 'Get Care', to: '/get-care' },
  { label: 'Forms', to: '/forms' },
] as const;

export function MainNav() {
  const desktop = useMediaQuery(DESKTOP_QUERY, { noSsr: true });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (desktop) {
    return (
      <Stack direction="row" spacing={0.5} component="nav" aria-label="Main" sx={{ ml: 3 }}>
        {MAIN_NAV.map((item) => (
          <Button
            key={item.to}
            component={NavLink}
            to={item.to}
            color="inherit"
            sx={{ '&.active': { color: 'primary.main', textDecoration: 'underline' } }}
          >
            {item.label}
          </Button>
        ))}
      </Stack>
    );
  }
  return (
    <nav aria-label="Main">
      <Button
        id="main-menu-button"
        aria-haspopup="menu"
        aria-controls={anchor ? 'main-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        color="inherit"
      >
        Menu
      </Button>
      <LazyLinkMenu
        id="main-menu"
        labelledBy="main-menu-button"
        anchor={anchor}
        items={MAIN_NAV}
        onClose={() => setAnchor(null)}
      />
    </nav>
  );
}
