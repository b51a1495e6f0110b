// Whose record the health-record screens show: the patient of the route (a care-team member's patient
// chart, /patients/{id}/health-record/...) or else the signed-in patient. As a search value
// ("Patient/{id}"); the links between the screens stay inside the same record.
import { useParams } from 'react-router-dom';
import { useSession } from '../../session/BloomClientContext';

/** A FHIR id (R4 id datatype); anything else in the route is nobody's record. */
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export function usePatientReference(): string | undefined {
  const { patientId } = useParams();
  const { profile } = useSession();
  if (patientId !== undefined) return FHIR_ID.test(patientId) ? `Patient/${patientId}` : undefined;
  return profile?.resourceType === 'Patient' && profile.id ? `Patient/${profile.id}` : undefined;
}

/** Where this record's screens live: /health-record, or /patients/{id}/health-record in a chart. */
export function useHealthRecordBase(): string {
  const { patientId } = useParams();
  return patientId !== undefined
    ? `/patients/${encodeURIComponent(patientId)}/health-record`
    : '/health-record';
}
