// A result Observation of the LabResultDetail query, shared by the results table and its phone cards.
import type { LabResultDetailQuery } from '../../../graphql';

type Report = NonNullable<LabResultDetailQuery['DiagnosticReport']>;
type ResultRef = NonNullable<NonNullable<Report['result']>[number]>;
export type ResultObservation = Extract<NonNullable<ResultRef['resource']>, { resourceType: string }>;
