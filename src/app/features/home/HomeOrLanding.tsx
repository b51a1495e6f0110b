// '/' is the landing page when signed out and the home page when signed in (SPEC §2). The home page
// and the GraphQL layer it reads through are lazy chunks: the landing page never downloads them.
import { retryableLazy } from '../../components/retryableLazy';
import { WithGraphql } from '../../session/GraphqlBoundary';
import { LandingPage } from '../landing/LandingPage';
import { useSession } from '../../session/BloomClientContext';
import { SessionLoading } from '../../session/RequireSession';

const HomePage = retryableLazy(() => import('./HomePage'));

export function HomeOrLanding() {
  const { loading, profile } = useSession();
  if (loading) return <SessionLoading />;
  return profile ? (
    <WithGraphql>
      <HomePage profile={profile} />
    </WithGraphql>
  ) : (
    <LandingPage />
  );
}
