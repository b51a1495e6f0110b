// The chart's one query (PatientChart): the patient for the heading and the data of the tab that opens
// (chartTabData). Shared by the chart frame and its Appointments tab, so Apollo's cache answers the
// second; the Lab results tab's list query is answered from the cache the same way.
import { useQuery } from '@apollo/client/react';
import { PatientChartDocument } from '../../../graphql';
import type { ChartTabData } from './chartTabs';

export function usePatientChart(patientId: string | undefined, tabData: ChartTabData) {
  return useQuery(PatientChartDocument, {
    variables: { id: patientId ?? '', patient: `Patient/${patientId ?? ''}`, ...tabData },
    skip: !patientId,
  });
}
