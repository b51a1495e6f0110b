// SPEC §3 autoBatchTime, §4 "Batches: an entry whose outcome is not ok rejects that entry's
// caller"; a failed auto-batch request settles every caller in it.
import type { Bundle } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { AutoBatcher } from '../../src/client/auto-batcher';

const FHIR = 'http://api.test/fhir/R4/';

function setup(answer: (bundle: Bundle) => Promise<Bundle>) {
  const sendOne = jest.fn((url: string) => Promise.resolve({ single: url }));
  const sendBatch = jest.fn(answer);
  const batcher = new AutoBatcher({ fhirBaseUrl: FHIR, delay: 10, sendOne, sendBatch });
  return { batcher, sendOne, sendBatch };
}

const okEntry = (id: string) => ({
  resource: { resourceType: 'Patient' as const, id },
  response: { status: '200 OK' },
});

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('AutoBatcher', () => {
  test('GETs in one window go out as one batch Bundle of relative GET entries; each caller gets its entry', async () => {
    const { batcher, sendBatch } = setup(async (bundle) => ({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: (bundle.entry ?? []).map((e) => okEntry(String(e.request?.url).split('/')[1])),
    }));
    const a = batcher.enqueue(`${FHIR}Patient/a`);
    const b = batcher.enqueue(`${FHIR}Patient/b`);
    const a2 = batcher.enqueue(`${FHIR}Patient/a`);
    expect(batcher.pending).toBe(3);
    expect(sendBatch).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(10);
    expect(sendBatch).toHaveBeenCalledTimes(1);
    expect(sendBatch.mock.calls[0][0]).toEqual({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: 'Patient/a' } },
        { request: { method: 'GET', url: 'Patient/b' } },
      ],
    });
    await expect(a).resolves.toMatchObject({ id: 'a' });
    await expect(b).resolves.toMatchObject({ id: 'b' });
    await expect(a2).resolves.toMatchObject({ id: 'a' });
  });

  test('one URL in the window is sent on its own', async () => {
    const { batcher, sendOne, sendBatch } = setup(async () => ({
      resourceType: 'Bundle',
      type: 'batch-response',
    }));
    const p = batcher.enqueue(`${FHIR}Patient/a`);
    await jest.advanceTimersByTimeAsync(10);
    await expect(p).resolves.toEqual({ single: `${FHIR}Patient/a` });
    expect(sendOne).toHaveBeenCalledTimes(1);
    expect(sendBatch).not.toHaveBeenCalled();
  });

  test('SPEC §4: an entry whose status is not ok rejects only its caller, with its outcome', async () => {
    const { batcher } = setup(async () => ({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: [
        okEntry('a'),
        {
          response: {
            status: '404',
            outcome: {
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
            },
          },
        },
        { response: { status: '403 Forbidden' } },
      ],
    }));
    const a = batcher.enqueue(`${FHIR}Patient/a`);
    const missing = batcher.enqueue(`${FHIR}Patient/missing`);
    const forbidden = batcher.enqueue(`${FHIR}Patient/secret`);
    const settled = Promise.allSettled([a, missing, forbidden]);
    await jest.advanceTimersByTimeAsync(10);
    const [ra, rm, rf] = await settled;
    expect(ra).toMatchObject({ status: 'fulfilled', value: { id: 'a' } });
    expect(rm.status).toBe('rejected');
    expect((rm as PromiseRejectedResult).reason).toBeInstanceOf(OperationOutcomeError);
    expect((rm as PromiseRejectedResult).reason.message).toBe('Not found');
    expect((rf as PromiseRejectedResult).reason.message).toBe('Batch entry failed with status 403 Forbidden');
  });

  test('issue #5: the batch request failing settles every caller in it with that error', async () => {
    const { batcher } = setup(() => Promise.reject(new Error('Failed to fetch')));
    const calls = [1, 2, 3].map((i) => batcher.enqueue(`${FHIR}Patient/${i}`));
    const settled = Promise.allSettled(calls);
    await jest.advanceTimersByTimeAsync(10);
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual([
      'Failed to fetch',
      'Failed to fetch',
      'Failed to fetch',
    ]);
  });

  test('a response with too few entries rejects the callers it has no entry for', async () => {
    const { batcher } = setup(async () => ({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: [okEntry('a')],
    }));
    const a = batcher.enqueue(`${FHIR}Patient/a`);
    const b = batcher.enqueue(`${FHIR}Patient/b`);
    const settled = Promise.allSettled([a, b]);
    await jest.advanceTimersByTimeAsync(10);
    const [ra, rb] = await settled;
    expect(ra.status).toBe('fulfilled');
    expect((rb as PromiseRejectedResult).reason.message).toBe('Missing batch entry');
  });

  test('a new window opens after a flush', async () => {
    const { batcher, sendOne } = setup(async () => ({ resourceType: 'Bundle', type: 'batch-response' }));
    const first = batcher.enqueue(`${FHIR}Patient/a`);
    await jest.advanceTimersByTimeAsync(10);
    await first;
    const second = batcher.enqueue(`${FHIR}Patient/b`);
    await jest.advanceTimersByTimeAsync(10);
    await second;
    expect(sendOne).toHaveBeenCalledTimes(2);
  });

  test('canBatch: FHIR URLs without own headers, signal, redirects or polling', () => {
    const { batcher } = setup(async () => ({ resourceType: 'Bundle', type: 'batch-response' }));
    expect(batcher.canBatch(`${FHIR}Patient/a`, {})).toBe(true);
    expect(batcher.canBatch('http://api.test/auth/me', {})).toBe(false);
    expect(batcher.canBatch(FHIR, {})).toBe(false);
    expect(batcher.canBatch(`${FHIR}Patient/a`, { headers: { X: '1' } })).toBe(false);
    expect(batcher.canBatch(`${FHIR}Patient/a`, { signal: new AbortController().signal })).toBe(false);
    expect(batcher.canBatch(`${FHIR}Patient/a`, { pollStatusOnAccepted: true })).toBe(false);
  });
});
