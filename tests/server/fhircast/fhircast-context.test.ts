// Unit tests of the hub's pure parts (SPEC §3 Remote context events): how each event
// changes a topic's current context, and the NOTIFY payloads between instances.
import type { FhircastEvent } from '../../../src/fhir/fhircast';
import { OperationOutcomeError, getStatus } from '../../../src/fhir/outcomes';
import { applyEvent, EMPTY_CONTEXT } from '../../../src/server/fhircast/current-context';
import type { CurrentContext } from '../../../src/server/fhircast/current-context';
import { decodeNotice, encodeNotice } from '../../../src/server/fhircast/store';

const event = (
  name: FhircastEvent['hub.event'],
  context: FhircastEvent['context'],
  versionId?: string,
): FhircastEvent => ({
  'hub.topic': 't',
  'hub.event': name,
  context,
  ...(versionId ? { 'context.versionId': versionId } : {}),
});
const patient = (id: string) => ({ key: 'patient', resource: { resourceType: 'Patient' as const, id } });
const report = {
  key: 'report',
  resource: {
    resourceType: 'DiagnosticReport' as const,
    id: 'r1',
    status: 'final' as const,
    code: { text: 'CBC' },
  },
};
const reportRef = (id = 'r1') => ({ key: 'report', reference: { reference: `DiagnosticReport/${id}` } });

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OperationOutcomeError);
    return { status: getStatus((err as OperationOutcomeError).outcome), message: (err as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('issue #11 applyEvent (SPEC §3)', () => {
  const openReport: CurrentContext = applyEvent(
    EMPTY_CONTEXT,
    event('DiagnosticReport-open', [report, patient('p1')]),
    'v1',
  ).next;

  test('open sets with the new version; a new open replaces the old context', () => {
    const first = applyEvent(EMPTY_CONTEXT, event('Patient-open', [patient('p1')]), 'v1');
    expect(first.next).toEqual({
      'context.type': 'Patient',
      'context.versionId': 'v1',
      context: [patient('p1')],
    });
    expect(first.delivered['context.versionId']).toBe('v1');
    expect(applyEvent(first.next, event('Patient-open', [patient('p2')]), 'v2').next.context).toEqual([
      patient('p2'),
    ]);
  });

  test('close clears only the matching anchor', () => {
    const open = applyEvent(EMPTY_CONTEXT, event('Patient-open', [patient('p1')]), 'v1').next;
    expect(applyEvent(open, event('Patient-close', [patient('p2')]), 'x').next).toBe(open);
    expect(applyEvent(open, event('DiagnosticReport-close', [report, patient('p1')]), 'x').next).toBe(open);
    expect(applyEvent(open, event('Patient-close', [patient('p1')]), 'x').next).toEqual(EMPTY_CONTEXT);
  });

  test('update: needs an open report, the same report, the current version (409 otherwise)', () => {
    const updates = {
      key: 'updates',
      resource: { resourceType: 'Bundle' as const, id: 'b', type: 'transaction' as const },
    };
    expect(
      refusal(() =>
        applyEvent(EMPTY_CONTEXT, event('DiagnosticReport-update', [reportRef(), updates], 'v1'), 'v2'),
      ).status,
    ).toBe(400);
    expect(
      refusal(() =>
        applyEvent(openReport, event('DiagnosticReport-update', [reportRef('r2'), updates], 'v1'), 'v2'),
      ).status,
    ).toBe(400);
    expect(
      refusal(() =>
        applyEvent(openReport, event('DiagnosticReport-update', [reportRef(), updates], 'v0'), 'v2'),
      ),
    ).toEqual({
      status: 409,
      message: 'context.versionId v0 is not the current version v1',
    });
    const { next, delivered } = applyEvent(
      openReport,
      event('DiagnosticReport-update', [reportRef(), updates], 'v1'),
      'v2',
    );
    expect(next['context.versionId']).toBe('v2');
    expect(delivered).toMatchObject({ 'context.versionId': 'v2', 'context.priorVersionId': 'v1' });
  });

  test('select replaces the selection and keeps the version; syncerror changes nothing', () => {
    const sel = (id: string) => ({ key: 'select', reference: { reference: `Observation/${id}` } });
    const once = applyEvent(openReport, event('DiagnosticReport-select', [reportRef(), sel('a')]), 'x').next;
    const twice = applyEvent(once, event('DiagnosticReport-select', [reportRef(), sel('b')]), 'y').next;
    expect(twice['context.versionId']).toBe('v1');
    expect(twice.context.filter((e) => e.key === 'select')).toEqual([sel('b')]);
    const outcome = {
      key: 'operationoutcome',
      resource: { resourceType: 'OperationOutcome' as const, id: 'o', issue: [] },
    };
    expect(applyEvent(twice, event('syncerror', [outcome]), 'z').next).toBe(twice);
  });
});

describe('issue #11 NOTIFY payloads between instances', () => {
  test('round trip; malformed payloads are ignored', () => {
    expect(decodeNotice(encodeNotice({ kind: 'message', seq: '42' }))).toEqual({
      kind: 'message',
      seq: '42',
    });
    expect(decodeNotice(encodeNotice({ kind: 'unsubscribed', endpointId: 'abc' }))).toEqual({
      kind: 'unsubscribed',
      endpointId: 'abc',
    });
    expect(decodeNotice('m|x')).toBeUndefined();
    expect(decodeNotice('u|')).toBeUndefined();
    expect(decodeNotice('nonsense')).toBeUndefined();
  });
});
