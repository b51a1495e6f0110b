// The hub's current context per topic and how each event changes it (SPEC §3 Remote
// context events, §7). Pure: the store (store.ts) locks the topic's row, calls applyEvent and writes
// the result, so concurrent publishers on any instance see one order of changes.
//   *-open                  sets the context (a new versionId);
//   *-close                 clears it when it names the open anchor; a close of anything else changes nothing;
//   DiagnosticReport-update needs the open report and its current versionId; the hub applies the
//                           updates Bundle to the report's content and advances the versionId;
//   DiagnosticReport-select needs the open report; the selection is kept, the version unchanged;
//   syncerror               changes nothing.
import type { Bundle, BundleEntry, Reference, Resource } from '@medplum/fhirtypes';
import type { FhircastContextEntry, FhircastEvent } from '../../fhir/fhircast';
import { badRequest, conflict, OperationOutcomeError } from '../../fhir/outcomes';

export interface CurrentContext {
  /** Anchor type of the open context ('Patient', 'DiagnosticReport'...), '' when none is open. */
  'context.type': string;
  'context.versionId'?: string;
  context: FhircastContextEntry[];
}

export const EMPTY_CONTEXT: CurrentContext = { 'context.type': '', context: [] };

const ANCHOR_KEYS: Record<string, string> = {
  Patient: 'patient',
  Encounter: 'encounter',
  ImagingStudy: 'study',
  DiagnosticReport: 'report',
};

export interface Applied {
  next: CurrentContext;
  /** The event as delivered: update events carry the new context.versionId and the prior one. */
  delivered: FhircastEvent;
}

function anchorId(context: FhircastContextEntry[], key: string): string | undefined {
  const entry = context.find((e) => e.key === key);
  return entry?.resource?.id ?? referenceId(entry?.reference);
}

function referenceId(reference: Reference | undefined): string | undefined {
  return reference?.reference?.split('/').pop();
}

function requireOpenReport(current: CurrentContext, event: FhircastEvent): void {
  if (current['context.type'] !== 'DiagnosticReport') {
    throw new OperationOutcomeError(
      badRequest(`${event['hub.event']} needs an open DiagnosticReport context on this topic`),
    );
  }
  const open = anchorId(current.context, 'report');
  const named = anchorId(event.context, 'report');
  if (open !== named) {
    throw new OperationOutcomeError(
      badRequest(
        `${event['hub.event']} names DiagnosticReport/${named}, the open report is DiagnosticReport/${open}`,
      ),
    );
  }
}

/** Applies an update Bundle's entries to the report's content: DELETE removes, others add or replace. */
function applyUpdates(content: Bundle, updates: Bundle): Bundle {
  let entries: BundleEntry[] = [...(content.entry ?? [])];
  const sameResource = (a: Resource | undefined, type: string, id: string | undefined): boolean =>
    a?.resourceType === type && a.id === id;
  for (const entry of updates.entry ?? []) {
    if (entry.request?.method === 'DELETE') {
      const [type, id] = (entry.request.url ?? '').split('/');
      entries = entries.filter((e) => !sameResource(e.resource, type, id));
    } else if (entry.resource) {
      const resource = entry.resource;
      entries = entries.filter((e) => !sameResource(e.resource, resource.resourceType, resource.id));
      entries.push({ resource });
    }
  }
  return { ...content, entry: entries };
}

export function applyEvent(current: CurrentContext, event: FhircastEvent, newVersionId: string): Applied {
  const name = event['hub.event'];
  if (name === 'syncerror') return { next: current, delivered: event };
  const [anchorType, action] = name.split('-');
  const anchorKey = ANCHOR_KEYS[anchorType];
  switch (action) {
    case 'open':
      return {
        next: { 'context.type': anchorType, 'context.versionId': newVersionId, context: event.context },
        delivered: { ...event, 'context.versionId': newVersionId },
      };
    case 'close': {
      const matches =
        current['context.type'] === anchorType &&
        anchorId(current.context, anchorKey) === anchorId(event.context, anchorKey);
      return { next: matches ? EMPTY_CONTEXT : current, delivered: event };
    }
    case 'select': {
      requireOpenReport(current, event);
      const kept = current.context.filter((e) => e.key !== 'select');
      const selected = event.context.filter((e) => e.key === 'select');
      return { next: { ...current, context: [...kept, ...selected] }, delivered: event };
    }
    case 'update': {
      requireOpenReport(current, event);
      const prior = current['context.versionId'];
      if (event['context.versionId'] !== prior) {
        throw new OperationOutcomeError(
          conflict(`context.versionId ${event['context.versionId']} is not the current version ${prior}`),
        );
      }
      const updates = event.context.find((e) => e.key === 'updates')?.resource as Bundle;
      const existing = current.context.find((e) => e.key === 'content')?.resource as Bundle | undefined;
      const content = applyUpdates(
        existing ?? { resourceType: 'Bundle', type: 'collection', entry: [] },
        updates,
      );
      const others = current.context.filter((e) => e.key !== 'content');
      return {
        next: {
          ...current,
          'context.versionId': newVersionId,
          context: [...others, { key: 'content', resource: content }],
        },
        delivered: { ...event, 'context.versionId': newVersionId, 'context.priorVersionId': prior },
      };
    }
    default:
      throw new OperationOutcomeError(badRequest(`Unknown FHIRcast event: ${name}`));
  }
}
