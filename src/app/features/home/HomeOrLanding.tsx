// '/' is the landing page when signed out and the home page when signed in (SPEC §2).
import { LandingPage } from '../landing/LandingPage';
import { useSession } from '../../session/BloomClientContext';
import { SessionLoading } from '../../session/RequireSession';
import { HomePage } from './HomePage';

export function HomeOrLanding() {
  const { loading, profile } = useSession();
  if (loading) return <SessionLoading />;
  return profile ? <HomePage profile={profile} /> : <LandingPage />;
}
