// Sending the server's emails: over SMTP with nodemailer when SMTP_HOST is set; otherwise each
// email is written to DATA_DIR/outbox/ and logged, so the demo's password reset works offline.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { badGateway, OperationOutcomeError } from '../../fhir/outcomes';
import type { ServerConfig } from '../config';

export interface Email {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/** One line per header; the values are ours or validated emails, but never let a newline through. */
function header(name: string, value: string): string {
  return `${name}: ${value.replace(/[\r\n]+/g, ' ')}`;
}

export function createMailer(
  config: Pick<ServerConfig, 'smtp' | 'mailFrom' | 'dataDir'>,
  log: FastifyBaseLogger,
): Mailer {
  const { smtp, mailFrom } = config;
  if (smtp) {
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.port === 465,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
    });
    return {
      async send(email) {
        try {
          await transport.sendMail({
            from: mailFrom,
            to: email.to,
            subject: email.subject,
            text: email.text,
          });
        } catch (err) {
          // Refused, reset or unreachable: this email fails with a clear outcome, nothing else does.
          log.warn({ err, to: email.to }, 'The mail server did not take an email');
          throw new OperationOutcomeError(
            badGateway(`The mail server did not take the email: ${(err as Error).message}`),
          );
        }
        log.info({ to: email.to, subject: email.subject }, 'Email sent');
      },
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(email) {
      await fs.mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outbox, name);
      const message = [
        header('From', mailFrom),
        header('To', email.to),
        header('Subject', email.subject),
        header('Date', new Date().toUTCString()),
        '',
        email.text,
        '',
      ].join('\r\n');
      // Owner-only: the file holds a reset link, which is as good as a password for an hour.
      await fs.writeFile(file, message, { mode: 0o600 });
      log.info({ to: email.to, file }, `Email written to ${file} (SMTP_HOST is not set)`);
    },
  };
}
