// FHIRcast STU3 events, context keys and the rules a subscription request or a published event must
// follow (SPEC §3 Remote context events, §5 client rules). Pure: the platform client
// checks before sending and the hub checks what it receives with these same functions, so both
// refuse the same inputs with the same message (an OperationOutcomeError, 400).
import type { Reference, Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from './outcomes';

export const FHIRCAST_EVENTS = [
  'Patient-open',
  'Patient-close',
  'ImagingStudy-open',
  'ImagingStudy-close',
  'Encounter-open',
  'Encounter-close',
  'DiagnosticReport-open',
  'DiagnosticReport-close',
  'DiagnosticReport-select',
  'DiagnosticReport-update',
  'syncerror',
] as const;

export type FhircastEventName = (typeof FHIRCAST_EVENTS)[number];

export type FhircastContextKey =
  'patient' | 'encounter' | 'study' | 'report' | 'select' | 'updates' | 'operationoutcome';

/** One context key of an event: the resource type it carries, and how often it may appear. */
interface KeyRule {
  /** '*' = any resource type (select). */
  type: string;
  required: boolean;
  many?: boolean;
  /** True: the entry carries `reference` (select/update events), not a `resource`. */
  reference?: boolean;
}

const key = (type: string, required: boolean, extra: Partial<KeyRule> = {}): KeyRule => ({
  type,
  required,
  ...extra,
});

const PATIENT_EVENT = { patient: key('Patient', true) };
const STUDY_EVENT = {
  study: key('ImagingStudy', true),
  encounter: key('Encounter', false),
  patient: key('Patient', false),
};
const ENCOUNTER_EVENT = { encounter: key('Encounter', true), patient: key('Patient', true) };
const REPORT_EVENT = {
  report: key('DiagnosticReport', true),
  patient: key('Patient', true),
  encounter: key('Encounter', false),
  study: key('ImagingStudy', false, { many: true }),
};

/** FHIRcast STU3 context keys per event. */
export const FHIRCAST_CONTEXT_RULES: Record<
  FhircastEventName,
  Partial<Record<FhircastContextKey, KeyRule>>
> = {
  'Patient-open': PATIENT_EVENT,
  'Patient-close': PATIENT_EVENT,
  'ImagingStudy-open': STUDY_EVENT,
  'ImagingStudy-close': STUDY_EVENT,
  'Encounter-open': ENCOUNTER_EVENT,
  'Encounter-close': ENCOUNTER_EVENT,
  'DiagnosticReport-open': REPORT_EVENT,
  'DiagnosticReport-close': REPORT_EVENT,
  'DiagnosticReport-select': {
    report: key('DiagnosticReport', true, { reference: true }),
    patient: key('Patient', false, { reference: true }),
    select: key('*', true, { reference: true, many: true }),
  },
  'DiagnosticReport-update': {
    report: key('DiagnosticReport', true, { reference: true }),
    patient: key('Patient', false, { reference: true }),
    updates: key('Bundle', true),
  },
  syncerror: { operationoutcome: key('OperationOutcome', true) },
};

/** Events that must carry `context.versionId`. */
export const VERSIONED_EVENTS: readonly FhircastEventName[] = ['DiagnosticReport-update'];

export interface FhircastContextEntry {
  key: string;
  resource?: Resource;
  reference?: Reference;
}

export interface FhircastSubscriptionRequest {
  channelType: string;
  mode: string;
  topic: string;
  events: string[];
  /** The WebSocket URL the hub answered with; needed to connect and to unsubscribe. */
  endpoint?: string;
}

export interface FhircastEvent {
  'hub.topic': string;
  'hub.event': FhircastEventName;
  context: FhircastContextEntry[];
  'context.versionId'?: string;
  'context.priorVersionId'?: string;
}

export interface FhircastMessage {
  timestamp: string;
  id: string;
  event: FhircastEvent;
}

export const FHIRCAST_MESSAGES = {
  topic: 'Topic must be a non-empty string',
  events: 'Events must be a non-empty array of event names',
  unknownEvent: (name: unknown) => `Unknown FHIRcast event: ${String(name)}`,
  channelType: "Channel type must be 'websocket'",
  mode: "Mode must be 'subscribe' or 'unsubscribe'",
  endpoint: "Endpoint must be a URL beginning with 'ws'",
  unsubscribeEndpoint: "Unsubscribing needs the subscription's endpoint (a URL beginning with 'ws')",
  context: 'Context must be an object or an array of objects',
  versionId: (event: string) => `The ${event} event needs a context.versionId`,
  badKey: (i: number, key: unknown, event: string) =>
    `context[${i}]: key '${String(key)}' is not valid for the ${event} event`,
  notObject: (i: number) => `context[${i}]: the resource must be an object`,
  id: (i: number) => `context[${i}]: the resource needs a string id`,
  resourceType: (i: number) => `context[${i}]: the resource needs a resourceType`,
  wrongType: (i: number, key: string, expected: string, actual: string) =>
    `context[${i}]: key '${key}' expects a ${expected}, got ${actual}`,
  reference: (i: number, key: string) => `context[${i}]: key '${key}' needs a reference`,
  missingKey: (key: string, event: string) => `The ${event} event needs a '${key}' context entry`,
  repeatedKey: (key: string, event: string, count: number) =>
    `The ${event} event allows one '${key}' context entry, got ${count}`,
};

// No expression on the issue: the error's message is then exactly the rule's text, on both sides.
function invalid(message: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(message));
}

export function isFhircastEventName(value: unknown): value is FhircastEventName {
  return typeof value === 'string' && (FHIRCAST_EVENTS as readonly string[]).includes(value);
}

export function validateTopic(topic: unknown): asserts topic is string {
  if (typeof topic !== 'string' || topic === '') throw invalid(FHIRCAST_MESSAGES.topic);
}

/**
 * SPEC §5: subscribe and unsubscribe requests. Throws the first rule broken. The hub also takes an
 * unsubscribe without events, as MedplumClient 5.x sends it: its endpoint names the subscription,
 * whose events the hub holds.
 */
export function validateSubscriptionRequest(
  request: FhircastSubscriptionRequest,
  checkedBy: 'client' | 'hub' = 'client',
): void {
  validateTopic(request.topic);
  const eventsOptional = checkedBy === 'hub' && request.mode === 'unsubscribe';
  const noEvents = Array.isArray(request.events) && request.events.length === 0;
  if (!Array.isArray(request.events) || (noEvents && !eventsOptional)) {
    throw invalid(FHIRCAST_MESSAGES.events);
  }
  for (const event of request.events) {
    if (!isFhircastEventName(event)) throw invalid(FHIRCAST_MESSAGES.unknownEvent(event));
  }
  if (request.channelType !== 'websocket') throw invalid(FHIRCAST_MESSAGES.channelType);
  if (request.mode !== 'subscribe' && request.mode !== 'unsubscribe') {
    throw invalid(FHIRCAST_MESSAGES.mode);
  }
  const hasEndpoint = request.endpoint !== undefined && request.endpoint !== '';
  if (hasEndpoint && !isWebSocketUrl(request.endpoint)) {
    throw invalid(FHIRCAST_MESSAGES.endpoint);
  }
  if (request.mode === 'unsubscribe' && !hasEndpoint) {
    throw invalid(FHIRCAST_MESSAGES.unsubscribeEndpoint);
  }
}

function isWebSocketUrl(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('ws');
}

/** The form body of a subscribe or unsubscribe request (hub.* names, events comma-separated). */
export function subscriptionRequestToForm(request: FhircastSubscriptionRequest): URLSearchParams {
  const form = new URLSearchParams({
    'hub.channel.type': request.channelType,
    'hub.mode': request.mode,
    'hub.topic': request.topic,
    'hub.events': request.events.join(','),
  });
  if (request.endpoint) form.set('hub.channel.endpoint', request.endpoint);
  return form;
}

/** The hub's reading of that form; validateSubscriptionRequest decides whether it is acceptable. */
export function subscriptionRequestFromForm(form: Record<string, unknown>): FhircastSubscriptionRequest {
  const text = (name: string): string => (typeof form[name] === 'string' ? (form[name] as string) : '');
  const events = text('hub.events');
  return {
    channelType: text('hub.channel.type'),
    mode: text('hub.mode'),
    topic: text('hub.topic'),
    events: events === '' ? [] : events.split(',').map((e) => e.trim()),
    endpoint: text('hub.channel.endpoint') || undefined,
  };
}

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).reference === 'string';
}

function validateEntry(entry: FhircastContextEntry, i: number, rule: KeyRule): void {
  if (rule.reference) {
    if (!isReference(entry.reference)) throw invalid(FHIRCAST_MESSAGES.reference(i, entry.key));
    return;
  }
  const resource: unknown = entry.resource;
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
    throw invalid(FHIRCAST_MESSAGES.notObject(i));
  }
  const { id, resourceType } = resource as { id?: unknown; resourceType?: unknown };
  if (typeof id !== 'string' || id === '') throw invalid(FHIRCAST_MESSAGES.id(i));
  if (typeof resourceType !== 'string' || resourceType === '') {
    throw invalid(FHIRCAST_MESSAGES.resourceType(i));
  }
  if (rule.type !== '*' && resourceType !== rule.type) {
    throw invalid(FHIRCAST_MESSAGES.wrongType(i, entry.key, rule.type, resourceType));
  }
}

/** Every entry's key and content, then the required keys and the keys allowed once. */
export function validateContext(event: FhircastEventName, context: FhircastContextEntry[]): void {
  const rules = FHIRCAST_CONTEXT_RULES[event];
  const seen = new Map<string, number>();
  context.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null) throw invalid(FHIRCAST_MESSAGES.context);
    const rule = Object.hasOwn(rules, entry.key) ? rules[entry.key as FhircastContextKey] : undefined;
    if (!rule) throw invalid(FHIRCAST_MESSAGES.badKey(i, entry.key, event));
    validateEntry(entry, i, rule);
    seen.set(entry.key, (seen.get(entry.key) ?? 0) + 1);
  });
  for (const [name, rule] of Object.entries(rules) as [string, KeyRule][]) {
    const count = seen.get(name) ?? 0;
    if (rule.required && count === 0) throw invalid(FHIRCAST_MESSAGES.missingKey(name, event));
    if (!rule.many && count > 1) throw invalid(FHIRCAST_MESSAGES.repeatedKey(name, event, count));
  }
}

/**
 * SPEC §5 publish rules on (topic, event name, context, versionId); returns the event with its
 * context as an array. Throws the first rule broken.
 */
export function validatePublish(
  topic: unknown,
  eventName: unknown,
  context: unknown,
  versionId?: unknown,
): FhircastEvent {
  validateTopic(topic);
  if (!isFhircastEventName(eventName)) throw invalid(FHIRCAST_MESSAGES.unknownEvent(eventName));
  if (typeof context !== 'object' || context === null) throw invalid(FHIRCAST_MESSAGES.context);
  if (VERSIONED_EVENTS.includes(eventName) && (typeof versionId !== 'string' || versionId === '')) {
    throw invalid(FHIRCAST_MESSAGES.versionId(eventName));
  }
  const entries = (Array.isArray(context) ? context : [context]) as FhircastContextEntry[];
  validateContext(eventName, entries);
  return {
    'hub.topic': topic,
    'hub.event': eventName,
    context: entries,
    ...(typeof versionId === 'string' && versionId !== '' ? { 'context.versionId': versionId } : {}),
  };
}
