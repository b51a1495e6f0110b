// The invitation email: a set-password link for a new User, a sign-in pointer for an existing one.
// Sent inside the invite's transaction, so a mail server that refuses it undoes the invite.
import type { Project, User, UserSecurityRequest } from '@medplum/fhirtypes';
import type { ServerServices } from '../services';
import type { Email } from '../auth/mailer';
import { randomSecret } from '../auth/logins';
import type { Repository } from '../repo';

/** An invited person has a week to choose a password (auth/setpassword accepts the link once). */
export const INVITE_LIFETIME_MS = 7 * 24 * 3600_000;
/**
 * A mail server that hangs must not hold the transaction (with PGlite: the whole database) for
 * minutes.
 */
export const INVITE_EMAIL_TIMEOUT_MS = 15_000;

function appOrigin(deps: ServerServices): string {
  return deps.config.appOrigins[0] ?? deps.config.baseUrl.replace(/\/$/, '');
}

function invitationText(
  deps: ServerServices,
  firstName: string,
  project: Project,
  link: string | undefined,
): string {
  const lines = [
    `Hello ${firstName},`,
    '',
    `You have been invited to ${project.name ?? 'a project'} on Bloom.`,
  ];
  if (link) {
    lines.push(
      'To choose your password and sign in, open:',
      link,
      '',
      'The link works once, for seven days.',
    );
  } else {
    lines.push(`Sign in with your existing Bloom account at ${appOrigin(deps)}/signin`);
  }
  return lines.join('\n');
}

/** Sends, or fails once `ms` have passed (the send itself may still finish later; its result is ignored). */
async function sendWithin(deps: ServerServices, email: Email, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`The invitation email was not sent within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([deps.mailer.send(email), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function sendInvitation(
  deps: ServerServices,
  system: Repository,
  invite: { user: User; isNewUser: boolean; firstName: string; project: Project },
  timeoutMs: number,
): Promise<void> {
  const { user, project } = invite;
  let link: string | undefined;
  if (invite.isNewUser) {
    const request = await system.createResource<UserSecurityRequest>({
      resourceType: 'UserSecurityRequest',
      type: 'invite',
      user: { reference: `User/${user.id}` },
      secret: randomSecret(),
      expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS).toISOString(),
    });
    link = `${appOrigin(deps)}/setpassword/${request.id}/${request.secret}`;
  }
  await sendWithin(
    deps,
    {
      to: user.email as string,
      subject: `You are invited to ${project.name ?? 'Bloom'}`,
      text: invitationText(deps, invite.firstName, project, link),
    },
    timeoutMs,
  );
}
