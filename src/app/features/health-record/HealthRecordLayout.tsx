// health-record/* frame: the Health Record side menu (SPEC §2 Navigation) beside the current screen.
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { SectionLayout, SideMenu, type SideMenuItem } from '../../components/SideMenu';

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

export default function HealthRecordLayout() {
  return (
    <SectionLayout menu={<SideMenu label="Health Record" items={HEALTH_RECORD_MENU} />}>
      <Suspense fallback={<LoadingState label="Loading" />}>
        <Outlet />
      </Suspense>
    </SectionLayout>
  );
}
