// A care-team member's patient chart (/patients/{id}/...): the patient's name and birth date, tabs
// for her screens, and the current one. Which of her records show is the access policy's decision.
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Suspense } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { CHART_TABS, currentTab, isFhirId } from './chartTabs';
import { patientName } from './patientRows';
import { usePatientChart } from './usePatientChart';

export function PatientChartLayout() {
  const { patientId } = useParams();
  const { pathname } = useLocation();
  const valid = isFhirId(patientId);
  const { data, loading, error, refetch } = usePatientChart(valid ? patientId : undefined);
  if (!valid) return <NotFoundPanel />;
  const base = `/patients/${encodeURIComponent(patientId)}`;
  const rest = pathname.startsWith(`${base}/`) ? pathname.slice(base.length + 1) : '';
  if (rest === '') return <Navigate to={`${base}/${CHART_TABS[0].path}`} replace />;
  const tab = currentTab(rest);
  const patient = data?.Patient;
  const name = patient ? patientName(patient.name) : undefined;
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, pt: { xs: 2, sm: 3 } }}>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label="Loading the patient" />}
      {data && !patient && !error && <NotFoundPanel />}
      {patient && (
        <>
          <Typography component="p" variant="overline" color="text.secondary">
            Patient chart
          </Typography>
          <Typography component="p" sx={{ fontSize: { xs: '1.3rem', sm: '1.6rem' }, fontWeight: 600 }}>
            {name}
          </Typography>
          {patient.birthDate && (
            <Typography color="text.secondary">
              Born <DateTimeDisplay value={patient.birthDate} />
            </Typography>
          )}
          <Box
            component="nav"
            aria-label="Patient chart"
            sx={{ borderBottom: 1, borderColor: 'divider', mt: 1 }}
          >
            <Tabs
              value={tab?.path ?? false}
              variant="scrollable"
              scrollButtons="auto"
              allowScrollButtonsMobile
            >
              {CHART_TABS.map((t) => (
                <Tab
                  key={t.path}
                  value={t.path}
                  label={t.label}
                  component={RouterLink}
                  to={`${base}/${t.path}`}
                  aria-current={tab?.path === t.path ? 'page' : undefined}
                />
              ))}
            </Tabs>
          </Box>
          <Suspense fallback={<LoadingState label="Loading" />}>
            <Outlet />
          </Suspense>
        </>
      )}
    </Box>
  );
}

export default PatientChartLayout;
