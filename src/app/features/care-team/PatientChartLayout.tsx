// A care-team member's patient chart (/patients/{id}/...): the patient's name and birth date, links
// to her screens (the current one marked), and the current one. Which of her records show is the
// access policy's decision. The heading and the open tab's data come in one request (usePatientChart).
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Suspense } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { CHART_TABS, chartTabData, currentTab, isFhirId, type ChartTab } from './chartTabs';
import { patientName } from './patientRows';
import { usePatientChart } from './usePatientChart';

export function PatientChartLayout() {
  const { patientId } = useParams();
  const { pathname } = useLocation();
  const valid = isFhirId(patientId);
  const base = `/patients/${encodeURIComponent(patientId ?? '')}`;
  const rest = pathname.startsWith(`${base}/`) ? pathname.slice(base.length + 1) : '';
  const { data, previousData, loading, error, refetch } = usePatientChart(
    valid ? patientId : undefined,
    chartTabData(rest),
  );
  if (!valid) return <NotFoundPanel />;
  if (rest === '') return <Navigate to={`${base}/${CHART_TABS[0].path}`} replace />;
  const tab = currentTab(rest);
  // Moving to a tab whose data is not cached yet: the heading stays while that tab loads.
  const patient = data?.Patient ?? (previousData?.Patient?.id === patientId ? previousData?.Patient : null);
  const name = patient ? patientName(patient.name) : undefined;
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, pt: { xs: 2, sm: 3 } }}>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !patient && <LoadingState label="Loading the patient" />}
      {data && !data.Patient && !error && <NotFoundPanel />}
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
          <ChartLinks base={base} current={tab} />
          {data?.Patient ? (
            <Suspense fallback={<LoadingState label="Loading" />}>
              <Outlet />
            </Suspense>
          ) : (
            !error && <LoadingState label="Loading" />
          )}
        </>
      )}
    </Box>
  );
}

/** The chart's sections as links (a tab strip to look at), scrolling sideways on a phone. */
function ChartLinks({ base, current }: { base: string; current: ChartTab | undefined }) {
  return (
    <Box component="nav" aria-label="Patient chart" sx={{ borderBottom: 1, borderColor: 'divider', mt: 1 }}>
      <Box component="ul" sx={{ display: 'flex', overflowX: 'auto', listStyle: 'none', m: 0, p: 0 }}>
        {CHART_TABS.map((t) => {
          const here = current?.path === t.path;
          return (
            <li key={t.path}>
              <Link
                component={RouterLink}
                to={`${base}/${t.path}`}
                aria-current={here ? 'page' : undefined}
                underline="none"
                sx={{
                  display: 'block',
                  px: 2,
                  py: 1.5,
                  whiteSpace: 'nowrap',
                  fontSize: '0.875rem',
                  fontWeight: 600,
                  color: here ? 'primary.main' : 'text.secondary',
                  borderBottom: 2,
                  borderColor: here ? 'primary.main' : 'transparent',
                  '&:hover': { color: 'primary.main' },
                }}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}

export default PatientChartLayout;
