// Real email delivery (SPEC §7 email/v1/send, invite, password reset): the server
// configured with SMTP_* delivers to a real SMTP server on loopback (the smtp-server package, not a
// hand-rolled fake), and each message arrives with the right sender, recipient, subject and link.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { uniqueEmail } from '../auth/support/auth-fixtures';
import { call, startClinic, startSibling, tempDataDir } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';
import type { TestServer } from '../support/test-server';

interface Delivered {
  from: string;
  to: string[];
  raw: string;
}

/** Headers of a raw message, unfolded, plus the body with quoted-printable soft breaks joined. */
function parse(raw: string): { headers: Record<string, string>; body: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = rest.join('\n\n');
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { headers, body };
}

describe.each(databases())('issue #10 email over a real SMTP server on loopback on %s', (_engine, kind) => {
  let clinic: Clinic;
  let dataDir: string;
  let smtp: SMTPServer;
  let mailServer: TestServer;
  const delivered: Delivered[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          delivered.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    dataDir = tempDataDir();
    clinic = await startClinic(kind, { DATA_DIR: dataDir });
    mailServer = await startSibling(clinic, {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'Bloom Clinic <clinic@bloom.example>',
      DATA_DIR: dataDir,
    });
  }, 60_000);

  afterAll(async () => {
    await mailServer?.close();
    await clinic?.server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const deliveredTo = (address: string) => delivered.filter((mail) => mail.to.includes(address));

  test('SPEC §7 email/v1/send by an admin arrives with its recipients and subject; a patient is refused', async () => {
    const response = await call(mailServer, 'POST', 'email/v1/send', clinic.admin, {
      body: {
        to: ['news-a@example.org', 'news-b@example.org'],
        subject: 'Clinic news smtp-1',
        text: 'Opening at 8.',
      },
      contentType: 'application/json',
    });
    expect(response.status).toBe(200);
    const mails = deliveredTo('news-a@example.org');
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['news-a@example.org', 'news-b@example.org']);
    expect(mails[0].from).toBe('clinic@bloom.example');
    const { headers, body } = parse(mails[0].raw);
    expect(headers.subject).toBe('Clinic news smtp-1');
    expect(body).toContain('Opening at 8.');
    const refused = await call(mailServer, 'POST', 'email/v1/send', clinic.maria, {
      body: { to: 'x@example.org', subject: 'no', text: 'no' },
      contentType: 'application/json',
    });
    expect(refused.status).toBe(403);
    expect(deliveredTo('x@example.org')).toHaveLength(0);
    // Nothing went to the outbox folder: SMTP replaced it.
    expect(fs.existsSync(`${dataDir}/outbox`)).toBe(false);
  });

  test('SPEC §7 an invitation arrives at the invitee with a set-password link', async () => {
    const email = uniqueEmail('smtp-invitee');
    const response = await call(
      mailServer,
      'POST',
      `admin/projects/${clinic.projectId}/invite`,
      clinic.admin,
      {
        body: { resourceType: 'Practitioner', firstName: 'Nadia', lastName: 'Okafor', email },
        contentType: 'application/json',
      },
    );
    expect(response.status).toBe(200);
    const mails = deliveredTo(email.toLowerCase()).concat(deliveredTo(email));
    expect(mails.length).toBeGreaterThanOrEqual(1);
    const { headers, body } = parse(mails[0].raw);
    expect(headers.to.toLowerCase()).toContain(email.toLowerCase());
    expect(headers.subject).toMatch(/invit|Bloom/i);
    expect(body).toMatch(/https?:\/\/\S+setpassword\/\S+/);
  });

  test('SPEC §7 a password reset arrives with its set-password link', async () => {
    const response = await call(mailServer, 'POST', 'auth/resetpassword', undefined, {
      body: { email: 'maria@bloom.example' },
      contentType: 'application/json',
    });
    expect(response.status).toBe(200);
    const mails = deliveredTo('maria@bloom.example');
    expect(mails).toHaveLength(1);
    const { headers, body } = parse(mails[0].raw);
    expect(headers.subject).toMatch(/password/i);
    expect(body).toMatch(/https?:\/\/\S+setpassword\/\S+/);
  });
});
