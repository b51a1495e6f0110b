// account/* frame: the Account side menu (SPEC §2 Navigation: Profile, Provider) beside the screen.
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { SectionLayout, SideMenu, type SideMenuItem } from '../../components/SideMenu';
import type { Message } from '../../i18n/catalog';
import { useT } from '../../i18n/LocaleProvider';
import { accountStrings } from './strings';

export const ACCOUNT_MENU: readonly (Omit<SideMenuItem, 'label'> & { readonly label: Message })[] = [
  { label: accountStrings.menuProfile, to: '/account/profile' },
  { label: accountStrings.menuProvider, to: '/account/provider' },
];

export default function AccountLayout() {
  const t = useT();
  const items = ACCOUNT_MENU.map((item) => ({ ...item, label: t(item.label) }));
  return (
    <SectionLayout menu={<SideMenu label={t(accountStrings.menu)} items={items} />}>
      <Suspense fallback={<LoadingState label={t(accountStrings.loading)} />}>
        <Outlet />
      </Suspense>
    </SectionLayout>
  );
}
