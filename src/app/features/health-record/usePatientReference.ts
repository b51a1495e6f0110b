// The signed-in patient as a search value ("Patient/{id}") for the health-record queries.
import { useSession } from '../../session/BloomClientContext';

export function usePatientReference(): string | undefined {
  const { profile } = useSession();
  return profile?.resourceType === 'Patient' && profile.id ? `Patient/${profile.id}` : undefined;
}
