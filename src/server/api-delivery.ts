// How the API's answers travel: compressed when the client accepts it, and never cached when they
// carry health data.
//
// Compression (@fastify/compress): text answers (FHIR JSON, GraphQL, NDJSON export files, OAuth and
// admin JSON, OperationOutcomes) above COMPRESSION_THRESHOLD bytes, brotli preferred over gzip, at the
// levels below, chosen by measuring req/s at 16 connections (bench/api-compression.ts). Partial
// content (206, Content-Range) is never compressed, and WebSocket upgrades never pass through here.
//
// Cache-Control: every answer under /fhir/R4/ (reads, searches, history, operations, $graphql,
// Binary content) is `no-store` unless its route chose otherwise, as Medplum's server sends it on
// every answer; a shared or browser cache must not keep a patient's record.
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/** Answers smaller than this go as they are: a few hundred bytes gain little and cost a compressor. */
export const COMPRESSION_THRESHOLD = 1024;
/** Brotli quality: 4 compresses FHIR JSON better than gzip 6 at about gzip's cost. */
export const BROTLI_QUALITY = 4;
/** gzip level for clients without brotli. */
export const GZIP_LEVEL = 6;

/** How the API compresses: the constants above, or other values when the benchmark compares them. */
export interface ApiCompression {
  readonly threshold: number;
  readonly brotliQuality: number;
  readonly gzipLevel: number;
}

export const API_COMPRESSION: ApiCompression = {
  threshold: COMPRESSION_THRESHOLD,
  brotliQuality: BROTLI_QUALITY,
  gzipLevel: GZIP_LEVEL,
};

/** The text types the API answers with; anything else (images, PDFs in Binaries) goes as stored. */
const COMPRESSIBLE =
  /^(application\/(json|fhir\+json|ndjson|fhir\+ndjson|x-ndjson|graphql-response\+json|problem\+json|jwk-set\+json|scim\+json)|text\/(plain|html|csv))\b/i;

const FHIR_PATH = /^\/fhir\/R4(\/|\?|$)/;

export async function registerApiDelivery(
  app: FastifyInstance,
  compression: ApiCompression = API_COMPRESSION,
): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: compression.threshold,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: compression.brotliQuality,
      },
    },
    zlibOptions: { level: compression.gzipLevel },
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (FHIR_PATH.test(request.url) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
