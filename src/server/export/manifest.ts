// What the status URL answers (FHIR Bulk Data 2.0 "Bulk Data Status Request"): progress while a
// job runs, the completion manifest once it is done.
import type { ExportJob } from './job-store';

export interface ExportManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count: number }[];
  error: { type: string; url: string }[];
}

/** The status URL of a job, also where the kick-off's Content-Location points. */
export function statusUrl(fhirBase: string, jobId: string): string {
  return `${fhirBase}bulkdata/export/${jobId}`;
}

/** Where one NDJSON file is downloaded (with the requester's access token). */
export function fileUrl(fhirBase: string, jobId: string, binaryId: string): string {
  return `${statusUrl(fhirBase, jobId)}/file/${binaryId}`;
}

export function buildManifest(fhirBase: string, job: ExportJob): ExportManifest {
  return {
    transactionTime: job.transactionTime,
    request: job.request,
    // Files are served only to the requester, so downloads carry the access token.
    requiresAccessToken: true,
    output: job.output.map((file) => ({
      type: file.type,
      url: fileUrl(fhirBase, job.id, file.binaryId),
      count: file.count,
    })),
    error: [],
  };
}

/** X-Progress: a short text for people (Bulk Data leaves its form to the server). */
export function progressText(job: ExportJob): string {
  if (job.status === 'accepted') {
    return 'Queued';
  }
  const type = job.types[job.typeIndex];
  const where = type ? `; exporting ${type} (type ${job.typeIndex + 1} of ${job.types.length})` : '';
  return `${job.exported} resources exported${where}`;
}
