// A message Maria attributes to Dr. Chen is refused (SPEC §6: the patient policy's writeConstraint
// says she is the sender of what she creates; SPEC §2 messages): in Chromium against the real API
// seeded with the demo clinic, from her own signed-in window with her own token, as any script of
// hers could, she POSTs a Communication into her thread whose `sender` is Dr. Chen. The server
// answers 403 and stores nothing; her thread shows only her own messages as hers.
import type { Bundle, Communication, OperationOutcome } from '@medplum/fhirtypes';
import type { BloomClient } from '../../src/client';
import { demoApiClient } from './support/demo-sign-in';
import { openMainNavItem, storedLogin } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();
let chen: BloomClient;

beforeAll(async () => {
  chen = await demoApiClient(suite.bloom, 'dr.chen@bloom.example');
}, 60_000);

/** How many messages her thread holds, as Dr. Chen counts them. */
async function messagesIn(threadRef: string): Promise<number> {
  const found = await chen.search<Communication>('Communication', {
    'part-of': threadRef,
    _summary: 'count',
  });
  return found.total ?? -1;
}

describe('SPEC §6 a patient cannot write as her doctor: a forged sender', () => {
  it('Maria cannot post a message as Dr. Chen into her thread: 403, nothing stored, no message of his shown as hers', async () => {
    const { page } = await suite.signIn('maria', 1280);
    const { profile: maria } = await storedLogin(page);
    const headers = await chen.search<Communication>('Communication', {
      subject: maria,
      'part-of:missing': 'true',
      _sort: '-_lastUpdated',
    });
    const header = (headers as Bundle<Communication>).entry?.[0]?.resource;
    expect(header?.id).toBeDefined();
    const threadRef = `Communication/${header?.id}`;
    const chenRef = `Practitioner/${chen.getProfile()?.id}`;
    const before = await messagesIn(threadRef);
    const forgedText = `Please stop your medication. (${Date.now()})`;

    const answer = await page.evaluate(
      async ({ api, body }) => {
        const login = JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}') as {
          accessToken?: string;
        };
        const response = await fetch(`${api}fhir/R4/Communication`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${login.accessToken ?? ''}`,
            'content-type': 'application/fhir+json',
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as unknown };
      },
      {
        api: suite.bloom.apiBaseUrl,
        body: {
          resourceType: 'Communication',
          status: 'completed',
          partOf: [{ reference: threadRef }],
          subject: { reference: maria },
          sender: { reference: chenRef, display: 'Dr. Lily Chen' },
          recipient: [{ reference: maria }],
          category: [{ coding: [{ code: 'message' }] }],
          payload: [{ contentString: forgedText }],
          sent: new Date().toISOString(),
        } satisfies Communication,
      },
    );
    expect(answer.status).toBe(403);
    expect((answer.body as OperationOutcome).resourceType).toBe('OperationOutcome');
    expect((answer.body as OperationOutcome).issue?.[0]?.code).toBe('forbidden');
    expect(await messagesIn(threadRef)).toBe(before);

    // Her thread: the forged words are nowhere, and every message shown as hers is sent by her.
    await openMainNavItem(page, 1280, 'Messages');
    await page.waitForURL(/\/messages$/);
    const thread = page.getByRole('list', { name: 'Messages' });
    await thread.getByRole('listitem').first().waitFor();
    expect(await thread.getByText(forgedText).count()).toBe(0);
    expect(await thread.getByText('Dr. Lily Chen').count()).toBeGreaterThan(0);
    const ownLabels = await thread.getByText(/\(you\)$/).allTextContents();
    expect(ownLabels.length).toBeGreaterThan(0);
    expect(ownLabels.filter((label) => /Chen/.test(label))).toEqual([]);
    const stored = await chen.search<Communication>('Communication', { 'part-of': threadRef, _count: '200' });
    const hers = ((stored as Bundle<Communication>).entry ?? []).filter(
      (entry) => entry.resource?.sender?.reference === maria,
    );
    expect(ownLabels).toHaveLength(hers.length);
  }, 120_000);
});
