// A section's side menu (SPEC §2 Navigation: Health Record and Account menus). From 768 px up
// (SPEC §9 mobile breakpoint) it is a column beside the page; below, it collapses behind a button.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { ErrorPanel } from './ErrorPanel';
import { shellStrings } from './strings';

export const MOBILE_BREAKPOINT_PX = 768;
export const DESKTOP_QUERY = `(min-width:${MOBILE_BREAKPOINT_PX}px)`;

export interface SideMenuItem {
  readonly label: string;
  readonly to: string;
  readonly children?: readonly SideMenuItem[];
}

function MenuItems({ items, depth }: { items: readonly SideMenuItem[]; depth: number }) {
  return (
    <List dense disablePadding>
      {items.map((item) => (
        <Box component="li" key={item.to} sx={{ listStyle: 'none' }}>
          <ListItemButton
            component={NavLink}
            to={item.to}
            end={!item.children}
            sx={{
              pl: 2 + depth * 2,
              borderRadius: 1,
              '&.active': { bgcolor: 'action.selected', fontWeight: 600 },
              '&.active .MuiListItemText-primary': { fontWeight: 600 },
            }}
          >
            <ListItemText primary={item.label} />
          </ListItemButton>
          {item.children && <MenuItems items={item.children} depth={depth + 1} />}
        </Box>
      ))}
    </List>
  );
}

export function SideMenu({ label, items }: { label: string; items: readonly SideMenuItem[] }) {
  const desktop = useMediaQuery(DESKTOP_QUERY, { noSsr: true });
  const { pathname } = useLocation();
  // Open only on the page where it was opened: a choice in the collapsed menu closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const listId = useId();
  const t = useT();
  if (desktop) {
    return (
      <Box component="nav" aria-label={label} sx={{ width: 220, flexShrink: 0 }}>
        <MenuItems items={items} depth={0} />
      </Box>
    );
  }
  return (
    <Box component="nav" aria-label={label} sx={{ mb: 2 }}>
      <Button
        variant="outlined"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenAt(open ? null : pathname)}
        fullWidth
      >
        {t(open ? shellStrings.sideMenuHide : shellStrings.sideMenu, { section: label })}
      </Button>
      {open && (
        <Box id={listId} sx={{ mt: 1 }}>
          <MenuItems items={items} depth={0} />
        </Box>
      )}
    </Box>
  );
}

/** A section frame: the side menu and the section's page. */
export function SectionLayout({ menu, children }: { menu: ReactNode; children: ReactNode }) {
  return (
    <Box
      sx={{
        maxWidth: 1200,
        mx: 'auto',
        px: { xs: 2, sm: 3 },
        py: { xs: 2, sm: 4 },
        display: 'flex',
        flexDirection: 'row',
        gap: 4,
        [`@media (max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`]: { flexDirection: 'column', gap: 0 },
      }}
    >
      {menu}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {/* A screen that fails shows the error panel beside the menu, which stays to move on with. */}
        <ErrorPanel>{children}</ErrorPanel>
      </Box>
    </Box>
  );
}
