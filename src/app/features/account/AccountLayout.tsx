// account/* frame: the Account side menu (SPEC §2 Navigation: Profile, Provider) beside the screen.
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { SectionLayout, SideMenu, type SideMenuItem } from '../../components/SideMenu';

export const ACCOUNT_MENU: readonly SideMenuItem[] = [
  { label: 'Profile', to: '/account/profile' },
  { label: 'Provider', to: '/account/provider' },
];

export default function AccountLayout() {
  return (
    <SectionLayout menu={<SideMenu label="Account" items={ACCOUNT_MENU} />}>
      <Suspense fallback={<LoadingState label="Loading" />}>
        <Outlet />
      </Suspense>
    </SectionLayout>
  );
}
