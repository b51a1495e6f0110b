// POST email/v1/send over real HTTP (SPEC §6 admins only, §7 sendEmail):
// to the outbox without SMTP, over SMTP when configured; every field validated.
import fs from 'node:fs';
import { databases } from '../support/test-databases';
import { call, outbox, startClinic, startSibling, tempDataDir } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { outcomeExpression } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { startFakeSmtp } from '../auth/support/fake-smtp';
import { MAX_RECIPIENTS } from '../../../src/server/email/send';
import type { TestServer } from '../support/test-server';

describe.each(databases())('email/v1/send on %s', (_engine, kind) => {
  let clinic: Clinic;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    clinic = await startClinic(kind, { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await clinic.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (body: unknown, tokens: Tokens | undefined, server: TestServer = clinic.server) =>
    call(server, 'POST', 'email/v1/send', tokens, { body, contentType: 'application/json' });

  const email = (marker: string) => ({
    to: ['first@example.org', 'second@example.org'],
    subject: `Clinic news ${marker}`,
    text: `Hello,\nthe clinic opens at 8 tomorrow. ${marker}`,
  });

  test('SPEC §7 an admin sends to two recipients: 200 All OK, one email in the outbox', async () => {
    const response = await send(email('outbox-1'), clinic.admin);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ resourceType: 'OperationOutcome', id: 'ok' });
    const mails = outbox(dataDir).filter((mail) => mail.includes('outbox-1'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: first@example.org, second@example.org');
    expect(mails[0]).toContain('Subject: Clinic news outbox-1');
    expect(mails[0]).toContain('the clinic opens at 8 tomorrow');
    // A single recipient may be a plain string, as in Medplum.
    expect((await send({ ...email('outbox-2'), to: 'one@example.org' }, clinic.admin)).status).toBe(200);
    expect(outbox(dataDir).some((mail) => mail.includes('To: one@example.org'))).toBe(true);
  });

  test('with SMTP_HOST set the email goes over SMTP', async () => {
    const smtp = await startFakeSmtp();
    const sibling = await startSibling(clinic, {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'Clinic <clinic@bloom.example>',
    });
    try {
      const response = await send(email('smtp-1'), clinic.admin, sibling);
      expect(response.status).toBe(200);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to.sort()).toEqual([
        'RCPT TO:<first@example.org>',
        'RCPT TO:<second@example.org>',
      ]);
      expect(smtp.received[0].data).toContain('Clinic news smtp-1');
    } finally {
      await sibling.close();
      await smtp.close();
    }
  });

  test("SPEC §6 a patient or a practitioner is 403, anonymous 401; another project's admin may send for their project", async () => {
    for (const tokens of [clinic.maria, clinic.chen]) {
      expect((await send(email('refused'), tokens)).status).toBe(403);
    }
    expect((await send(email('refused'), undefined)).status).toBe(401);
    expect(outbox(dataDir).some((mail) => mail.includes('refused'))).toBe(false);
    expect((await send(email('other-project'), clinic.otherAdmin)).status).toBe(200);
  });

  test.each([
    [{ to: undefined }, 'to'],
    [{ to: [] }, 'to'],
    [{ to: 'not-an-address' }, 'to'],
    [{ to: ['ok@example.org', 42] }, 'to'],
    [{ to: Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `r${i}@example.org`) }, 'to'],
    [{ subject: '' }, 'subject'],
    [{ subject: 'two\nlines' }, 'subject'],
    [{ subject: 's'.repeat(999) }, 'subject'],
    [{ text: undefined }, 'text'],
    [{ text: 7 }, 'text'],
    [{ html: '<p>hi</p>' }, 'html'],
    [{ cc: 'x@example.org' }, 'cc'],
    [{ attachments: [] }, 'attachments'],
  ])('bad field %j is 400 on %s and sends nothing', async (change, field) => {
    const before = outbox(dataDir).length;
    const response = await send({ ...email('bad'), ...change }, clinic.admin);
    expect(response.status).toBe(400);
    expect(outcomeExpression(response.body)).toEqual([field]);
    expect(outbox(dataDir)).toHaveLength(before);
  });

  test('a body that is not a JSON object is 400', async () => {
    expect((await send([email('array')], clinic.admin)).status).toBe(400);
    expect((await send('"text"', clinic.admin)).status).toBe(400);
  });
});
