// Loads the benchmark clinic through the server's own write path (transaction Bundles of PUTs,
// so every resource is validated and indexed in its transaction, as over HTTP) and measures the
// load rate. PostgreSQL takes several transactions at once; PGlite runs one at a time anyway.
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Database } from '../../src/server/db';
import { processBatch } from '../../src/server/fhir/batch';
import { Repository, systemContext } from '../../src/server/repo';
import type { DatasetShape } from './dataset';
import { generateDataset } from './dataset';

export interface LoadFigures {
  resources: number;
  seconds: number;
  resourcesPerSecond: number;
}

const FHIR_BASE = 'http://localhost/fhir/R4/';

function transactionOf(resources: Resource[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: resources.map((resource) => ({
      resource,
      request: { method: 'PUT', url: `${resource.resourceType}/${resource.id}` },
    })),
  };
}

export async function loadDataset(
  db: Database,
  shape: DatasetShape,
  options: { chunk: number; concurrency: number; progress?: (done: number) => void },
): Promise<LoadFigures> {
  const repo = new Repository(db, systemContext());
  const started = performance.now();
  let done = 0;
  const inFlight = new Set<Promise<void>>();
  for (const chunk of generateDataset(shape, options.chunk)) {
    const task = processBatch(repo, FHIR_BASE, transactionOf(chunk)).then((response) => {
      const failed = response.entry?.find((entry) => !entry.response?.status.startsWith('20'));
      if (failed) {
        throw new Error(`load failed: ${JSON.stringify(failed.response)}`);
      }
      done += chunk.length;
      options.progress?.(done);
    });
    const tracked = task.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= options.concurrency) {
      await Promise.race(inFlight);
    }
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  return { resources: done, seconds, resourcesPerSecond: done / seconds };
}
