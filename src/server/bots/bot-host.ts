// The host side of the bot's FHIR client: each call from the sandbox arrives as a
// method name and JSON arguments and runs through the Repository as the bot's membership, so
// access control is the server's ordinary one. An update may carry the version the bot read
// (If-Match); a failed call's OperationOutcome travels back with its message, so a bot can tell a
// 412 (someone wrote in between) from other failures, as with Medplum's OperationOutcomeError.
import type { OperationOutcome, Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError, operationOutcomeToString, isOperationOutcome } from '../../fhir';
import { parseVersionTag } from '../fhir/http-headers';
import { searchInteraction } from '../fhir/interactions';
import type { Repository } from '../repo';
import { postOperation } from './bot-operations';
import type { BotHostCall } from './sandbox';

function stringArg(args: unknown[], index: number, name: string): string {
  const value = args[index];
  if (typeof value !== 'string' || !value) {
    throw new OperationOutcomeError(badRequest(`${name} must be a non-empty string`));
  }
  return value;
}

function resourceArg(args: unknown[]): Resource {
  const value = args[0];
  if (!value || typeof value !== 'object' || typeof (value as Resource).resourceType !== 'string') {
    throw new OperationOutcomeError(badRequest('A resource with a resourceType is required'));
  }
  return value as Resource;
}

/** A search query as the bot gives it: 'name=x&_count=2', an object, or nothing. */
function queryArg(value: unknown): URLSearchParams {
  if (typeof value === 'string') {
    return new URLSearchParams(value);
  }
  const params = new URLSearchParams();
  if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      for (const item of Array.isArray(entry) ? entry : [entry]) {
        params.append(key, String(item));
      }
    }
  }
  return params;
}

/** The sandbox's write options: `{ ifMatch: 'W/"3"' }` (the If-Match header the bot gave), or none. */
function ifMatchArg(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const ifMatch = (value as { ifMatch?: unknown }).ifMatch;
  if (typeof value !== 'object' || (ifMatch !== undefined && typeof ifMatch !== 'string')) {
    throw new OperationOutcomeError(badRequest('If-Match must be a version tag such as W/"1"'));
  }
  return parseVersionTag(ifMatch);
}

/** A failed call as the sandbox receives it: the outcome's text and the outcome itself. */
export class BotHostError extends Error {
  constructor(
    message: string,
    readonly outcome?: OperationOutcome,
  ) {
    super(message);
  }
}

/** Errors go back into the sandbox as their outcome, never as a host stack trace. */
function describe(err: unknown): BotHostError {
  if (err instanceof OperationOutcomeError) {
    return new BotHostError(operationOutcomeToString(err.outcome), err.outcome);
  }
  if (isOperationOutcome(err)) {
    return new BotHostError(operationOutcomeToString(err), err);
  }
  return new BotHostError(err instanceof Error ? err.message : String(err));
}

export function createBotHost(repo: Repository, fhirBase: string): BotHostCall {
  return async (method, args) => {
    try {
      switch (method) {
        case 'readResource':
          return await repo.readResource(stringArg(args, 0, 'resourceType'), stringArg(args, 1, 'id'));
        case 'search': {
          const query = queryArg(args[1]);
          if (args[2] !== undefined) {
            query.set('_count', String(args[2]));
          }
          return (await searchInteraction(repo, fhirBase, stringArg(args, 0, 'resourceType'), query)).body;
        }
        case 'createResource':
          return await repo.createResource(resourceArg(args));
        case 'updateResource':
          return (await repo.updateResource(resourceArg(args), { ifMatch: ifMatchArg(args[1]) })).resource;
        case 'post':
          return await postOperation(repo, fhirBase, stringArg(args, 0, 'url'), args[1]);
        case 'deleteResource':
          await repo.deleteResource(stringArg(args, 0, 'resourceType'), stringArg(args, 1, 'id'));
          return undefined;
        default:
          throw new OperationOutcomeError(badRequest(`Unknown bot client method ${method}`));
      }
    } catch (err) {
      throw describe(err);
    }
  };
}
