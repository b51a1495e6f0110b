// The routes of SPEC §2: / (landing page signed out, home signed in), the sign-in screens, /signout;
// signed-in routes sit behind RequireSession; any other path redirects to / signed out and shows the
// not-found panel signed in.
// Around the root route's frame, RouteErrorBoundary is the router-level fallback 'Unexpected Application Error!'.
import { Suspense, type ReactNode } from 'react';
import { retryableLazy } from './components/retryableLazy';
import type { RouteObject } from 'react-router-dom';
import { LoadingState } from './components/LoadingState';
import { Layout } from './components/Layout';
import { NotFoundPanel } from './components/NotFoundPanel';
import { accountRoutes } from './features/account/accountRoutes';
import { adminRoutes } from './features/admin/adminRoutes';
import { RouteErrorBoundary } from './components/RouteErrorPage';
import { formsRoutes } from './features/forms/formsRoutes';
import { getCareRoutes } from './features/get-care/getCareRoutes';
import { healthRecordRoutes, healthRecordSection } from './features/health-record/healthRecordRoutes';
import { journeyRoutes } from './features/journey/journeyRoutes';
import { kickCountRoutes } from './features/kick-count/kickCountRoutes';
import { chartMessagesRoute, messagesRoutes } from './features/messages/messagesRoutes';
import { SearchTableEarlyStart, searchTableRoutes } from './features/search-table/searchTableRoutes';
import { LandingPage } from './features/landing/LandingPage';
import { resourceRoutes } from './features/resource/resourceRoutes';
import { screeningRoutes } from './features/screening/screeningRoutes';
import { useSession } from './session/BloomClientContext';
import { GraphqlOutlet, WithGraphql } from './session/GraphqlBoundary';
import { RequireSession, SessionLoading } from './session/RequireSession';
import { ShareContextProvider } from './session/share/ShareContextProvider';

// The sign-in screens are chunks of their own too: the landing page does not download their forms.
const SignInPage = retryableLazy(() =>
  import('./features/signin/SignInPage').then((m) => ({ default: m.SignInPage })),
);
const RegisterPage = retryableLazy(() =>
  import('./features/register/RegisterPage').then((m) => ({ default: m.RegisterPage })),
);
const ResetPasswordPage = retryableLazy(() =>
  import('./features/password/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const SetPasswordPage = retryableLazy(() =>
  import('./features/password/SetPasswordPage').then((m) => ({ default: m.SetPasswordPage })),
);
const SignOutPage = retryableLazy(() =>
  import('./features/signout/SignOutPage').then((m) => ({ default: m.SignOutPage })),
);

// '/' is the landing page when signed out and the home page when signed in (SPEC §2): composed here,
// since features do not import each other. The home page and the GraphQL layer it reads through are
// lazy chunks: the landing page never downloads them.
const HomePage = retryableLazy(() => import('./features/home/HomePage'));
// A care-team member's home is her patients (and the appointment requests waiting for her).
const CareTeamHome = retryableLazy(() => import('./features/care-team/CareTeamHome'));
const PatientChartLayout = retryableLazy(() => import('./features/care-team/PatientChartLayout'));
const ChartAppointments = retryableLazy(() => import('./features/care-team/ChartAppointments'));
const InboxPage = retryableLazy(() => import('./features/inbox/InboxPage'));

function HomeOrLanding() {
  const { loading, profile } = useSession();
  if (loading) return <SessionLoading />;
  if (!profile) return <LandingPage />;
  return (
    <WithGraphql>
      {profile.resourceType === 'Practitioner' ? (
        <CareTeamHome profile={profile} />
      ) : (
        <HomePage profile={profile} />
      )}
    </WithGraphql>
  );
}

/**
 * The care team's screens: the inbox, and a patient's chart that reuses the patient's own screens for
 * the patient of the route (features do not import each other, so the chart is composed here).
 */
function careTeamRoutes(): RouteObject[] {
  return [
    { path: 'inbox', element: <InboxPage /> },
    {
      path: 'patients/:patientId',
      element: <PatientChartLayout />,
      children: [
        healthRecordSection(),
        chartMessagesRoute(),
        { path: 'appointments', element: <ChartAppointments /> },
      ],
    },
  ];
}

function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingState label="Loading" />}>{children}</Suspense>;
}

/** Routes that need a session; the features of later issues (messages, health record...) go here. */
export function appRoutesWith(signedInRoutes: RouteObject[]): RouteObject[] {
  return [
    {
      path: '/',
      // Context sharing around every screen: another app's open is followed from anywhere.
      element: (
        <RouteErrorBoundary>
          <ShareContextProvider>
            <Layout />
          </ShareContextProvider>
        </RouteErrorBoundary>
      ),
      children: [
        { index: true, element: <HomeOrLanding /> },
        {
          path: 'signin',
          element: (
            <Loaded>
              <SignInPage />
            </Loaded>
          ),
        },
        {
          path: 'register',
          element: (
            <Loaded>
              <RegisterPage />
            </Loaded>
          ),
        },
        {
          path: 'resetpassword',
          element: (
            <Loaded>
              <ResetPasswordPage />
            </Loaded>
          ),
        },
        {
          path: 'setpassword/:id/:secret',
          element: (
            <Loaded>
              <SetPasswordPage />
            </Loaded>
          ),
        },
        {
          path: 'signout',
          element: (
            <Loaded>
              <SignOutPage />
            </Loaded>
          ),
        },
        // Signed-in screens: GraphQL (a lazy chunk) around lazily loaded screens; signed out, every
        // path here (including unknown ones) goes to / (SPEC §2), signed in an unknown one is 'Not found'.
        {
          // The search table's data may start before the session check has answered.
          element: (
            <>
              <SearchTableEarlyStart />
              <RequireSession />
            </>
          ),
          children: [
            {
              element: <GraphqlOutlet />,
              // Generic resource pages (/:resourceType/:id, /:resourceType/new) after the static
              // routes: static segments such as Observation/:observationId outrank their dynamic ones.
              children: [
                ...signedInRoutes,
                ...careTeamRoutes(),
                ...adminRoutes,
                ...messagesRoutes,
                ...healthRecordRoutes,
                ...getCareRoutes,
                ...formsRoutes,
                ...screeningRoutes,
                ...journeyRoutes,
                ...kickCountRoutes,
                ...resourceRoutes,
                ...searchTableRoutes,
                { path: '*', element: <NotFoundPanel /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export const appRoutes: RouteObject[] = appRoutesWith([...accountRoutes]);
