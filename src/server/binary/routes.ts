// Binary (SPEC §7 "POST Binary?_filename with raw body"): the raw body is stored through
// BinaryStorage and described by a Binary resource (contentType kept, the file name in an
// extension). GET Binary/{id} answers the bytes with their type, or the FHIR JSON form (data in
// base64, plus the signed url) when asked for application/fhir+json. GET storage/{id}?Signature=…
// answers the bytes without a header, for <img> and links in the app.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Binary, Coding, Reference } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, notFound, OperationOutcomeError, payloadTooLarge } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { FHIR_JSON } from '../media-types';
import { acceptRawBodies } from '../request-bodies';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { binaryContentHidden } from './signed-responses';
import { signBinaryUrl, STORAGE_PATH, verifyBinarySignature } from './signed-url';
import type { BinaryStorage } from './storage';

/** Binary has no extensions (it is not a DomainResource): the file name rides as a meta tag's display. */
export const FILENAME_TAG_SYSTEM = 'https://bloom.example/fhir/CodeSystem/binary-filename';

export interface BinaryRoutesOptions {
  deps: ServerServices;
  storage: BinaryStorage;
  fhirBase: string;
  getContext: (request: FastifyRequest) => RepositoryContext;
}

/** Content types are kept as sent, but must look like one (type/subtype[; params]). */
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

function filenameOf(binary: Binary): string | undefined {
  return binary.meta?.tag?.find((tag) => tag.system === FILENAME_TAG_SYSTEM)?.display;
}

/** Uploaded content is never run by the browser as a page of ours, whatever its type. */
function sendContent(
  reply: FastifyReply,
  binary: Binary,
  content: { stream: Readable; size: number },
): FastifyReply {
  const filename = filenameOf(binary);
  if (filename) {
    reply.header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(filename)}`);
  }
  return reply
    .header('Content-Type', binary.contentType ?? 'application/octet-stream')
    .header('Content-Length', String(content.size))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "sandbox; default-src 'none'")
    .send(content.stream);
}

function badFilenameCharacter(name: string): boolean {
  return [...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);
}

/** A literal 'Type/id' reference, as X-Security-Context names the resource that governs a Binary. */
const LITERAL_REFERENCE = /^[A-Z][A-Za-z]{1,63}\/[A-Za-z0-9\-.]{1,64}$/;

/**
 * The Binary's securityContext: the X-Security-Context header when given (Medplum's
 * header), else for a patient her own Patient, so her upload lands in her compartment and she can
 * read it back. The Repository refuses a patient's Binary placed in another patient's compartment.
 */
function securityContextOf(request: FastifyRequest, context: RepositoryContext): Reference | undefined {
  const header = request.headers['x-security-context'];
  if (header !== undefined) {
    const value = (Array.isArray(header) ? header[0] : header).trim();
    if (!LITERAL_REFERENCE.test(value)) {
      throw new OperationOutcomeError(
        badRequest('X-Security-Context must be a reference such as Patient/123', 'securityContext'),
      );
    }
    return { reference: value };
  }
  const patient = context.access?.patientCompartment;
  return patient ? { reference: patient } : undefined;
}

function wantsFhirJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const format = (request.query as Record<string, string | undefined>)._format ?? '';
  return /application\/(fhir\+)?json/.test(accept) || /json/.test(format);
}

export const binaryRoutes: FastifyPluginAsync<BinaryRoutesOptions> = async (app, options) => {
  const { deps, storage, fhirBase, getContext } = options;
  const { config } = deps;
  const signedUrl = (id: string) => signBinaryUrl(deps.keys, config.baseUrl, id, config.binaryUrlLifetime);

  // Any content type is content: the body arrives as bytes, whatever it claims to be.
  acceptRawBodies(app, config.binaryMaxSize);

  app.post<{ Querystring: { _filename?: string } }>(
    '/fhir/R4/Binary',
    {
      // Before the body is read: a declared size over the limit is refused with the Binary limit named.
      onRequest: async (request, reply) => {
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > config.binaryMaxSize) {
          // The unread body stays on the socket: close it after the 413 rather than keep it alive.
          void reply.header('connection', 'close');
          throw new OperationOutcomeError(
            payloadTooLarge(`Binary content is larger than the limit of ${config.binaryMaxSize} bytes`),
          );
        }
      },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').trim();
      if (!CONTENT_TYPE.test(contentType)) {
        throw new OperationOutcomeError(
          badRequest('POST Binary needs a Content-Type header such as image/png'),
        );
      }
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new OperationOutcomeError(badRequest('POST Binary needs a non-empty body'));
      }
      const filename = request.query._filename;
      if (
        filename !== undefined &&
        (filename.length === 0 || filename.length > 255 || badFilenameCharacter(filename))
      ) {
        throw new OperationOutcomeError(
          badRequest(
            '_filename must be 1 to 255 characters without slashes or control characters',
            '_filename',
          ),
        );
      }
      const context = getContext(request);
      const securityContext = securityContextOf(request, context);
      const id = crypto.randomUUID();
      await storage.put(id, Readable.from([body]), config.binaryMaxSize);
      let binary: Binary;
      try {
        const tag: Coding[] | undefined = filename
          ? [{ system: FILENAME_TAG_SYSTEM, code: 'filename', display: filename }]
          : undefined;
        binary = await new Repository(deps.db, context).createResource<Binary>(
          {
            resourceType: 'Binary',
            contentType,
            ...(securityContext ? { securityContext } : {}),
            ...(tag ? { meta: { tag } } : {}),
          },
          { assignedId: id },
        );
      } catch (err) {
        // Refused (rights, validation): the bytes must not outlive their resource.
        await storage.delete(id);
        throw err;
      }
      return reply
        .status(201)
        .header('Location', `${fhirBase}Binary/${id}/_history/${binary.meta?.versionId}`)
        .header('ETag', `W/"${binary.meta?.versionId}"`)
        .type(FHIR_JSON)
        .send(binaryContentHidden(context, binary) ? binary : { ...binary, url: await signedUrl(id) });
    },
  );

  app.get<{ Params: { id: string } }>('/fhir/R4/Binary/:id', async (request, reply) => {
    const context = getContext(request);
    const binary = await new Repository(deps.db, context).readResource<Binary>('Binary', request.params.id);
    if (binaryContentHidden(context, binary)) {
      // The policy hides the content (`data`): the resource without it, never the bytes or a URL.
      if (wantsFhirJson(request)) return reply.type(FHIR_JSON).send(binary);
      throw new OperationOutcomeError({
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'forbidden',
            details: { text: 'Your access policy hides the content of this Binary' },
            expression: ['Binary.data'],
          },
        ],
      });
    }
    const content = await storage.get(binary.id as string);
    if (!content) {
      throw new OperationOutcomeError(notFound);
    }
    if (wantsFhirJson(request)) {
      const chunks: Buffer[] = [];
      for await (const chunk of content.stream) chunks.push(chunk as Buffer);
      return reply.type(FHIR_JSON).send({
        ...binary,
        data: Buffer.concat(chunks).toString('base64'),
        url: await signedUrl(binary.id as string),
      });
    }
    return sendContent(reply, binary, content);
  });

  // No Authorization header here (an <img> cannot send one): the signature is the permission.
  app.get<{ Params: { id: string }; Querystring: { Signature?: string } }>(
    `/${STORAGE_PATH}:id`,
    async (request, reply) => {
      const { id } = request.params;
      if (!(await verifyBinarySignature(deps.keys, id, request.query.Signature))) {
        throw new OperationOutcomeError({
          resourceType: 'OperationOutcome',
          issue: [
            { severity: 'error', code: 'forbidden', details: { text: 'Invalid or expired signature' } },
          ],
        });
      }
      let binary: Binary;
      try {
        binary = await systemRepo(deps.db).readResource<Binary>('Binary', id);
      } catch {
        throw new OperationOutcomeError(notFound);
      }
      const content = await storage.get(id);
      if (!content) {
        throw new OperationOutcomeError(notFound);
      }
      // The app (another origin) shows it in an <img>; the signature already limits who can.
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
      reply.header('Cache-Control', `private, max-age=${config.binaryUrlLifetime}`);
      return sendContent(reply, binary, content);
    },
  );
};
