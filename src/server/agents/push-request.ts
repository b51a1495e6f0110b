// The parameters of POST Agent/{id}/$push (SPEC §7): {destination, body,
// contentType, waitForResponse, waitTimeout?, returnAck?} as the platform client and Medplum's send
// them (a JSON object), or the same as a FHIR Parameters resource. Refusals name the parameter.
import type { Device, Parameters, ParametersParameter } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Repository } from '../repo';
import { validateSearchQuery } from '../search/request-validation';

/** Medplum's defaults: wait 10 s for the destination's reply, never more than 55 s. */
export const DEFAULT_PUSH_WAIT_MS = 10_000;
export const MAX_PUSH_WAIT_MS = 55_000;

export interface PushRequest {
  destination: string;
  body: string;
  contentType: string;
  waitForResponse: boolean;
  waitTimeout: number;
  returnAck: 'first' | 'application' | undefined;
}

function invalid(text: string, expression: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(text, expression));
}

function parameterValue(parameter: ParametersParameter): unknown {
  for (const [key, value] of Object.entries(parameter)) {
    if (key.startsWith('value')) return value;
  }
  return undefined;
}

/** A Parameters resource's named values as a plain object (first value of each name). */
function fromParameters(parameters: Parameters): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const parameter of parameters.parameter ?? []) {
    if (parameter.name && !(parameter.name in fields)) fields[parameter.name] = parameterValue(parameter);
  }
  return fields;
}

export function parsePushRequest(input: unknown): PushRequest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new OperationOutcomeError(badRequest('$push needs a JSON object or Parameters body'));
  }
  const raw = input as Record<string, unknown>;
  const fields = raw.resourceType === 'Parameters' ? fromParameters(raw as unknown as Parameters) : raw;
  const { destination, contentType, waitForResponse, waitTimeout, returnAck } = fields;
  let body = fields.body;
  if (typeof destination !== 'string' || destination.trim() === '') {
    throw invalid('Missing destination parameter', 'destination');
  }
  if (typeof contentType !== 'string' || contentType.trim() === '') {
    throw invalid('Missing contentType parameter', 'contentType');
  }
  // The platform client sends any value; a JSON value travels as its JSON text.
  if (body !== undefined && body !== null && typeof body !== 'string') body = JSON.stringify(body);
  if (typeof body !== 'string' || body === '') {
    throw invalid('Missing body parameter', 'body');
  }
  if (waitForResponse !== undefined && typeof waitForResponse !== 'boolean') {
    throw invalid('waitForResponse must be true or false', 'waitForResponse');
  }
  const wait = waitTimeout ?? DEFAULT_PUSH_WAIT_MS;
  if (typeof wait !== 'number' || !Number.isInteger(wait) || wait < 1 || wait > MAX_PUSH_WAIT_MS) {
    throw invalid(
      `waitTimeout must be a whole number of milliseconds from 1 to ${MAX_PUSH_WAIT_MS}`,
      'waitTimeout',
    );
  }
  if (returnAck !== undefined && returnAck !== 'first' && returnAck !== 'application') {
    throw invalid("returnAck must be 'first' or 'application'", 'returnAck');
  }
  return {
    destination: destination.trim(),
    body,
    contentType: contentType.trim(),
    waitForResponse: waitForResponse === true,
    waitTimeout: wait,
    returnAck,
  };
}

/**
 * What the agent is asked to reach: a Device's url for `Device/{id}` or a `Device?search` (read as
 * the caller, so their access rules apply), else the destination as given (a name the agent knows).
 */
export async function resolveRemote(repo: Repository, destination: string): Promise<string> {
  let device: Device | undefined;
  if (destination.startsWith('Device/')) {
    const id = destination.slice('Device/'.length);
    device = await repo.readResource<Device>('Device', id).catch(() => undefined);
  } else if (destination.startsWith('Device?')) {
    const request = validateSearchQuery('Device', new URLSearchParams(destination.slice('Device?'.length)));
    const found = await repo.search<Device>({ ...request, count: 2 });
    if (found.resources.length > 1)
      throw invalid('The destination search matches more than one Device', 'destination');
    device = found.resources[0];
  } else {
    return destination;
  }
  if (!device) throw invalid('Destination device not found', 'destination');
  if (!device.url) throw invalid('Destination device has no url', 'destination');
  return device.url;
}
