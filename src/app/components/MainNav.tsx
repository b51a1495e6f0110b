// The header's main navigation (SPEC §2 Navigation): for a patient Health Record, Messages, Get Care
// and Forms (the clinic's questionnaires); for the care team Patients, Inbox and a Records menu (the
// resource search by type); for an admin an Admin menu too (navItems.ts). Below 768 px (SPEC §9)
// everything collapses into one Menu button.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { useLoadedBloomClient, useSession } from '../session/BloomClientContext';
import { LazyLinkMenu } from './LazyLinkMenu';
import { navFor, navRole, type NavGroup } from './navItems';
import { DESKTOP_QUERY } from './SideMenu';
import { shellStrings } from './strings';

function GroupMenu({ group }: { group: NavGroup }) {
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = `${group.id}-menu-button`;
  return (
    <>
      <Button
        id={buttonId}
        aria-haspopup="menu"
        aria-controls={anchor ? `${group.id}-menu` : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        color="inherit"
      >
        {t(group.label)}
      </Button>
      <LazyLinkMenu
        id={`${group.id}-menu`}
        labelledBy={buttonId}
        anchor={anchor}
        items={group.items.map((item) => ({ label: t(item.label), to: item.to }))}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}

export function MainNav() {
  const desktop = useMediaQuery(DESKTOP_QUERY, { noSsr: true });
  const { profile } = useSession();
  const client = useLoadedBloomClient();
  const { links, groups } = navFor(navRole(profile?.resourceType, client?.isProjectAdmin() ?? false));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const t = useT();
  if (desktop) {
    return (
      <Stack
        direction="row"
        spacing={0.5}
        component="nav"
        aria-label={t(shellStrings.mainNav)}
        sx={{ ml: 3 }}
      >
        {links.map((item) => (
          <Button
            key={item.to}
            component={NavLink}
            to={item.to}
            end={item.to === '/'}
            color="inherit"
            sx={{ '&.active': { color: 'primary.main', textDecoration: 'underline' } }}
          >
            {t(item.label)}
          </Button>
        ))}
        {groups.map((group) => (
          <GroupMenu key={group.id} group={group} />
        ))}
      </Stack>
    );
  }
  return (
    <nav aria-label={t(shellStrings.mainNav)}>
      <Button
        id="main-menu-button"
        aria-haspopup="menu"
        aria-controls={anchor ? 'main-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        color="inherit"
      >
        {t(shellStrings.menu)}
      </Button>
      <LazyLinkMenu
        id="main-menu"
        labelledBy="main-menu-button"
        anchor={anchor}
        items={[...links, ...groups.flatMap((group) => group.items)].map((item) => ({
          label: t(item.label),
          to: item.to,
        }))}
        onClose={() => setAnchor(null)}
      />
    </nav>
  );
}
