// health-record/* frame: the Health Record side menu (SPEC §2 Navigation) beside the current screen.
// In a care-team member's patient chart the same menu leads to that patient's screens.
import { Suspense, useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { SectionLayout, SideMenu, type SideMenuItem } from '../../components/SideMenu';
import { shellStrings } from '../../components/strings';
import type { Message } from '../../i18n/catalog';
import { useT, type Translate } from '../../i18n/LocaleProvider';
import { recordStrings as m } from './strings';
import { useHealthRecordBase } from './usePatientReference';

interface MenuEntry {
  readonly label: Message;
  readonly to: string;
  readonly children?: readonly MenuEntry[];
}

export const HEALTH_RECORD_MENU: readonly MenuEntry[] = [
  { label: m.labResults, to: '/health-record/lab-results' },
  { label: m.medications, to: '/health-record/medications' },
  { label: m.vaccines, to: '/health-record/vaccines' },
  {
    label: m.vitals,
    to: '/health-record/vitals',
    children: [
      { label: m.bloodPressure, to: '/health-record/vitals/blood-pressure' },
      { label: m.heartRate, to: '/health-record/vitals/heart-rate' },
      { label: m.weight, to: '/health-record/vitals/weight' },
    ],
  },
];

function underBase(items: readonly MenuEntry[], base: string, t: Translate): SideMenuItem[] {
  return items.map((item) => ({
    label: t(item.label),
    to: item.to.replace(/^\/health-record/, base),
    ...(item.children ? { children: underBase(item.children, base, t) } : {}),
  }));
}

export default function HealthRecordLayout() {
  const base = useHealthRecordBase();
  const t = useT();
  const items = useMemo(() => underBase(HEALTH_RECORD_MENU, base, t), [base, t]);
  return (
    <SectionLayout menu={<SideMenu label={t(shellStrings.healthRecord)} items={items} />}>
      <Suspense fallback={<LoadingState label={t(shellStrings.loading)} />}>
        <Outlet />
      </Suspense>
    </SectionLayout>
  );
}
