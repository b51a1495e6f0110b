// Medplum's ThreadChat (@medplum/react 5.2.13, unchanged) on the demo clinic's thread between Maria
// and Dr. Chen (a header Communication, its messages partOf it): both see the demo messages; a
// message sent on one page reaches the other live (subscribeToCriteria over Bloom's WebSocket) and
// is stored in the thread, and the header's `sent` follows it (ThreadChat's PATCH). ThreadInbox
// lists the practitioner's threads and opens one.
import type { Communication } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { demoApiClient, demoPatientId } from '../../e2e/support/demo-sign-in';
import { databases } from '../../server/support/test-databases';
import { useMedplumReactSuite } from './support/suite';

describe.each(databases())("Medplum's ThreadChat and ThreadInbox against Bloom on %s", (_engine, kind) => {
  const suite = useMedplumReactSuite({ database: kind });
  async function chenClient() {
    return demoApiClient(suite.demo.bloom, 'dr.chen@bloom.example');
  }

  /** Maria's thread header with Dr. Chen and its messages, oldest first, as Bloom stores them. */
  async function mariasThread(): Promise<{ header: Communication; messages: Communication[] }> {
    const client = await chenClient();
    const maria = await demoPatientId(suite.demo.bloom, 'maria@bloom.example');
    const headers = await client.searchResources<Communication>(
      'Communication',
      `subject=Patient/${maria}&part-of:missing=true`,
      { cache: 'no-cache' },
    );
    expect(headers).toHaveLength(1);
    const header = headers[0];
    const messages = await client.searchResources<Communication>(
      'Communication',
      `part-of=Communication/${header.id}&_sort=sent&_count=100`,
      { cache: 'no-cache' },
    );
    return { header, messages: [...messages] };
  }

  function text(message: Communication): string {
    return message.payload?.[0]?.contentString ?? '';
  }

  async function send(page: Page, message: string): Promise<void> {
    await page.getByPlaceholder('Type a message...').fill(message);
    await page.getByRole('button', { name: 'Send message' }).click();
  }

  test('ThreadChat: Maria and Dr. Chen see the demo thread, and each one’s message reaches the other live', async () => {
    const { header, messages } = await mariasThread();
    expect(messages.length).toBeGreaterThan(2);
    const path = `/thread/${header.id}`;

    const chen = await suite.signIn('dr.chen@bloom.example', path);
    const maria = await suite.signIn('maria@bloom.example', path);
    for (const { page } of [chen, maria]) {
      await page.getByRole('heading', { name: header.topic?.text ?? 'no topic' }).waitFor();
      for (const message of messages) await page.getByText(text(message), { exact: true }).waitFor();
    }

    // Maria writes; Dr. Chen's open thread shows it without a reload.
    const fromMaria = `Is ${Date.now()} a good time to call?`;
    await send(maria.page, fromMaria);
    await maria.page.getByText(fromMaria, { exact: true }).waitFor();
    await chen.page.getByText(fromMaria, { exact: true }).waitFor();

    // Dr. Chen answers; Maria's open thread shows it without a reload.
    const fromChen = `Yes, I will call you at ${Date.now()}.`;
    await send(chen.page, fromChen);
    await maria.page.getByText(fromChen, { exact: true }).waitFor();

    // Both are stored in the thread, from the right sender, and the header's `sent` is the latest.
    const after = await mariasThread();
    const added = after.messages.slice(messages.length);
    expect(added.map((m) => [text(m), m.sender?.reference, m.partOf?.[0]?.reference])).toEqual([
      [
        fromMaria,
        `Patient/${await demoPatientId(suite.demo.bloom, 'maria@bloom.example')}`,
        `Communication/${header.id}`,
      ],
      [fromChen, expect.stringMatching(/^Practitioner\//), `Communication/${header.id}`],
    ]);
    expect(after.header.sent).toBe(added[1].sent);

    // Each side's ThreadChat marks the message it received (a PUT of `received`, status completed):
    // Dr. Chen's for Maria's message, Maria's own for Dr. Chen's (her policy allows that receipt).
    const receipts = async () =>
      (await mariasThread()).messages
        .slice(messages.length)
        .map((m) => [text(m), m.status, m.received !== undefined]);
    const marked = [
      [fromMaria, 'completed', true],
      [fromChen, 'completed', true],
    ];
    let seen = await receipts();
    for (let tries = 0; tries < 30 && JSON.stringify(seen) !== JSON.stringify(marked); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      seen = await receipts();
    }
    expect(seen).toEqual(marked);
  });

  test("ThreadInbox lists Dr. Chen's demo threads, one per patient, and opens Maria's", async () => {
    const { header, messages } = await mariasThread();
    const chen = await suite.signIn('dr.chen@bloom.example', '/inbox');
    // Each thread has a message, so each is listed (ThreadInbox's search and $graphql last message).
    const maria = chen.page.getByRole('link').filter({ hasText: 'Maria Garcia' });
    const aisha = chen.page.getByRole('link').filter({ hasText: 'Aisha Khan' });
    for (const item of [maria, aisha]) await item.getByText(header.topic?.text ?? 'no topic').waitFor();
    await maria.click();
    await chen.page.waitForURL(`**/inbox/${header.id}`);
    for (const message of messages) await chen.page.getByText(text(message), { exact: true }).waitFor();
  });
});
