// The inputs of a FHIR operation from the query string (GET) or a Parameters body (POST), as
// Medplum's parseInputParameters reads them: each parameter known by name, primitive values as
// strings (valueString, valueDateTime, valueInstant, valueInteger, valueReference's reference),
// Resource parameters as resources. An unknown or repeated-when-single parameter is a 400.
import type { Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { QueryParams } from '../fhir/paging';

export interface InputParameter {
  name: string;
  /** 'resource' takes a Resource; 'value' a primitive or reference. */
  kind: 'value' | 'resource';
  max: 1 | '*';
}

export type OperationInput = Map<string, (string | Resource)[]>;

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

export function readOperationInput(
  operation: string,
  known: readonly InputParameter[],
  query: QueryParams,
  body: unknown,
): OperationInput {
  const input: OperationInput = new Map();
  const definition = (name: string, expression: string): InputParameter => {
    const found = known.find((parameter) => parameter.name === name);
    if (!found) {
      invalid(
        `Unsupported parameter '${name}' for ${operation}: use ${known.map((p) => p.name).join(', ')}`,
        expression,
      );
    }
    return found;
  };
  const add = (name: string, value: string | Resource) => {
    input.set(name, [...(input.get(name) ?? []), value]);
  };
  for (const [name, raw] of Object.entries(query)) {
    const parameter = definition(name, name);
    if (parameter.kind === 'resource')
      invalid(`Parameter '${name}' of ${operation} must be sent in a Parameters body`, name);
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (typeof value === 'string') add(name, value);
    }
  }
  if (body !== undefined && body !== null && body !== '') {
    const parameters = body as { resourceType?: unknown; parameter?: unknown };
    if (typeof parameters !== 'object' || parameters.resourceType !== 'Parameters') {
      invalid(`The body of ${operation} must be a FHIR Parameters resource`);
    }
    const list = parameters.parameter ?? [];
    if (!Array.isArray(list)) invalid('Parameters.parameter must be an array', 'Parameters.parameter');
    for (const [index, raw] of list.entries()) {
      const expression = `Parameters.parameter[${index}]`;
      const entry = (raw ?? {}) as Record<string, unknown>;
      const parameter = definition(String(entry.name), expression);
      if (parameter.kind === 'resource') {
        const resource = entry.resource as Resource | undefined;
        if (!resource || typeof resource !== 'object' || typeof resource.resourceType !== 'string') {
          invalid(`Parameter '${parameter.name}' must carry a resource`, expression);
        }
        add(parameter.name, resource);
        continue;
      }
      const reference = (entry.valueReference as { reference?: unknown } | undefined)?.reference;
      const value =
        [entry.valueString, entry.valueDateTime, entry.valueInstant, entry.valueCode, reference].find(
          (candidate) => typeof candidate === 'string',
        ) ?? (typeof entry.valueInteger === 'number' ? String(entry.valueInteger) : undefined);
      if (typeof value !== 'string')
        invalid(`Parameter '${parameter.name}' has no value of its type`, expression);
      add(parameter.name, value);
    }
  }
  for (const parameter of known) {
    if (parameter.max === 1 && (input.get(parameter.name)?.length ?? 0) > 1) {
      invalid(`Parameter '${parameter.name}' is given more than once`, parameter.name);
    }
  }
  return input;
}

export function stringInput(input: OperationInput, name: string): string | undefined {
  const value = input.get(name)?.[0];
  return typeof value === 'string' ? value : undefined;
}

export function stringInputs(input: OperationInput, name: string): string[] {
  return (input.get(name) ?? []).filter((value): value is string => typeof value === 'string');
}

export function resourceInputs<T extends Resource>(input: OperationInput, name: string): T[] {
  return (input.get(name) ?? []).filter((value): value is T => typeof value !== 'string');
}
