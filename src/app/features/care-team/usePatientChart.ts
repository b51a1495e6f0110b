// The chart's one query (PatientChart): the patient for the heading and her appointments. Shared by
// the chart frame and its Appointments tab, so Apollo's cache answers the second.
import { useQuery } from '@apollo/client/react';
import { PatientChartDocument } from '../../../graphql';

export function usePatientChart(patientId: string | undefined) {
  return useQuery(PatientChartDocument, {
    variables: { id: patientId ?? '', patient: `Patient/${patientId ?? ''}` },
    skip: !patientId,
  });
}
