// Literal references 'Type/id' (SPEC §5 "Client": 'Missing reference', 'Invalid reference') and the
// system reference of SPEC §3: a fixed Device with id 'system' stands in for a reference equal to 'system'.
import type { Device, HumanName, Reference, Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from './outcomes';

export const SYSTEM_REFERENCE = 'system';

export const systemDevice: Device = {
  resourceType: 'Device',
  id: 'system',
  deviceName: [{ name: 'System', type: 'user-friendly-name' }],
};

// Type/id, optionally versioned (Type/id/_history/vid); the id follows SPEC §5 (1-64 of [A-Za-z0-9-.]).
const LITERAL_REFERENCE = /^([A-Z][A-Za-z]*)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

function referenceString(ref: Reference | string | undefined): string | undefined {
  return typeof ref === 'string' ? ref : ref?.reference;
}

export function isSystemReference(ref: Reference | string | undefined): boolean {
  const value = referenceString(ref);
  return value === SYSTEM_REFERENCE || value === 'Device/system';
}

/** Splits 'Type/id' into its parts; throws an OperationOutcomeError (400) when empty or malformed. */
export function parseReference(ref: Reference | string | undefined): [resourceType: string, id: string] {
  const value = referenceString(ref);
  if (!value) {
    throw new OperationOutcomeError(badRequest('Missing reference'));
  }
  if (value === SYSTEM_REFERENCE) {
    return ['Device', 'system'];
  }
  const match = LITERAL_REFERENCE.exec(value);
  if (!match) {
    throw new OperationOutcomeError(badRequest('Invalid reference'));
  }
  return [match[1], match[2]];
}

export function getReferenceString(resource: Resource): string {
  if (!resource.id) {
    throw new OperationOutcomeError(badRequest('Missing id'));
  }
  return `${resource.resourceType}/${resource.id}`;
}

export function formatHumanName(name: HumanName): string | undefined {
  if (name.text) {
    return name.text;
  }
  const parts = [...(name.prefix ?? []), ...(name.given ?? []), name.family, ...(name.suffix ?? [])];
  const text = parts.filter((part): part is string => !!part).join(' ');
  return text || undefined;
}

/** A display text for a reference, from the resource's name where it has one. */
export function getDisplayString(resource: Resource): string | undefined {
  const named = resource as { name?: unknown; deviceName?: { name?: string }[] };
  if (typeof named.name === 'string') {
    return named.name || undefined;
  }
  if (Array.isArray(named.name)) {
    const first = named.name[0] as HumanName | undefined;
    return first ? formatHumanName(first) : undefined;
  }
  if (Array.isArray(named.deviceName)) {
    return named.deviceName[0]?.name || undefined;
  }
  return undefined;
}

export function createReference<T extends Resource>(resource: T): Reference<T> {
  const reference: Reference<T> = { reference: getReferenceString(resource) };
  const display = getDisplayString(resource);
  if (display) {
    reference.display = display;
  }
  return reference;
}
