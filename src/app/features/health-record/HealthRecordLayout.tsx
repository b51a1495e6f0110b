// health-record/* frame: the Health Record side menu (SPEC §2 Navigation) beside the current screen.
// In a care-team member's patient chart the same menu leads to that patient's screens.
import { Suspense, useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { SectionLayout, SideMenu, type SideMenuItem } from '../../components/SideMenu';
import { useHealthRecordBase } from './usePatientReference';

export const HEALTH_RECORD_MENU: readonly SideMenuItem[] = [
  { label: 'Lab Results', to: '/health-record/lab-results' },
  { label: 'Medications', to: '/health-record/medications' },
  { label: 'Vaccines', to: '/health-record/vaccines' },
  {
    label: 'Vitals',
    to: '/health-record/vitals',
    children: [
      { label: 'Blood Pressure', to: '/health-record/vitals/blood-pressure' },
      { label: 'Heart Rate', to: '/health-record/vitals/heart-rate' },
      { label: 'Weight', to: '/health-record/vitals/weight' },
    ],
  },
];

function underBase(items: readonly SideMenuItem[], base: string): SideMenuItem[] {
  return items.map((item) => ({
    ...item,
    to: item.to.replace(/^\/health-record/, base),
    ...(item.children ? { children: underBase(item.children, base) } : {}),
  }));
}

export default function HealthRecordLayout() {
  const base = useHealthRecordBase();
  const items = useMemo(() => underBase(HEALTH_RECORD_MENU, base), [base]);
  return (
    <SectionLayout menu={<SideMenu label="Health Record" items={items} />}>
      <Suspense fallback={<LoadingState label="Loading" />}>
        <Outlet />
      </Suspense>
    </SectionLayout>
  );
}
