// POST admin/projects/{projectId}/invite over real HTTP (SPEC §6 admins
// only, §7 invite): new or existing User, profile and membership, the invitation email in the
// outbox with a working set-password link; refusals create nothing; a failed email undoes it all.
import fs from 'node:fs';
import net from 'node:net';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, outbox, startClinic, startSibling, tempDataDir } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { outcomeExpression, outcomeText, postJson, signIn, uniqueEmail } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';

const NEW_PASSWORD = 'lantern-orchid-5521';

describe.each(databases())('admin invite on %s', (_engine, kind) => {
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

  const invite = (body: unknown, tokens: Tokens = clinic.admin, projectId = clinic.projectId, headers = {}) =>
    call<ProjectMembership>(clinic.server, 'POST', `admin/projects/${projectId}/invite`, tokens, {
      body,
      contentType: 'application/json',
      headers,
    });

  const person = (email = uniqueEmail('invitee')) => ({
    resourceType: 'Practitioner',
    firstName: 'Nadia',
    lastName: 'Okafor',
    email,
  });

  async function count(sql: string, param: string): Promise<number> {
    const { rows } = await clinic.server.db.query<{ n: number }>(sql, [param]);
    return rows[0].n;
  }
  const usersWithEmail = (email: string) =>
    count(
      "SELECT count(*)::int AS n FROM resource WHERE resource_type = 'User' AND lower(content->>'email') = lower($1)",
      email,
    );
  const membershipsOfEmail = (email: string) =>
    count(
      "SELECT count(*)::int AS n FROM resource WHERE resource_type = 'ProjectMembership' AND lower(content->'user'->>'display') = lower($1)",
      email,
    );
  const profilesWithEmail = (email: string) =>
    count(
      `SELECT count(*)::int AS n FROM resource WHERE resource_type IN ('Practitioner', 'Patient')
       AND content->'telecom' @> jsonb_build_array(jsonb_build_object('value', $1::text))`,
      email,
    );
  // Emails are stored and sent lower-cased (Medplum); the fixtures' addresses have capitals.
  const mailTo = (email: string) =>
    outbox(dataDir).filter((mail) => mail.includes(`To: ${email.toLowerCase()}`));

  test('SPEC §7 an admin invites a new person: User, Practitioner and membership; the emailed link sets a password that signs in', async () => {
    const email = uniqueEmail('newdoc');
    const response = await invite(person(email));
    expect(response.status).toBe(200);
    const membership = response.body;
    expect(membership).toMatchObject({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${clinic.projectId}` },
      profile: { reference: expect.stringMatching(/^Practitioner\//), display: 'Nadia Okafor' },
      user: { reference: expect.stringMatching(/^User\//) },
    });
    expect(membership.admin).toBeUndefined();
    expect(await usersWithEmail(email)).toBe(1);
    const mails = mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Bloom Clinic');
    const link = /\/setpassword\/([^/\s]+)\/([^/\s]+)/.exec(mails[0]);
    expect(link).not.toBeNull();
    const set = await postJson(`${clinic.server.baseUrl}auth/setpassword`, {
      id: link?.[1],
      secret: link?.[2],
      password: NEW_PASSWORD,
    });
    expect(set.status).toBe(200);
    const tokens = await signIn(clinic.server.baseUrl, email, NEW_PASSWORD);
    expect(tokens.profile?.reference).toBe(membership.profile.reference);
    expect(tokens.project?.reference).toBe(`Project/${clinic.projectId}`);
  });

  test('a Patient invite gets the project default patient access policy; admin: true makes an admin', async () => {
    const patient = await invite({ ...person(), resourceType: 'Patient' });
    expect(patient.status).toBe(200);
    expect(patient.body.profile.reference).toMatch(/^Patient\//);
    const project = await call<{ defaultPatientAccessPolicy?: { reference?: string } }>(
      clinic.server,
      'GET',
      `fhir/R4/Project/${clinic.projectId}`,
      clinic.admin,
    );
    expect(patient.body.accessPolicy?.reference).toBe(project.body.defaultPatientAccessPolicy?.reference);
    const admin = await invite({ ...person(), admin: true });
    expect(admin.body.admin).toBe(true);
    const viaMembership = await invite({ ...person(), membership: { admin: true } });
    expect(viaMembership.body.admin).toBe(true);
  });

  test('an existing user is not created again and gets a sign-in email; a second invite to the same project is 409', async () => {
    const email = uniqueEmail('twice');
    expect((await invite(person(email))).status).toBe(200);
    // The other project's admin invites the same person to their project.
    const other = await invite(person(email), clinic.otherAdmin, clinic.otherProjectId);
    expect(other.status).toBe(200);
    expect(other.body.user.reference).toBeDefined();
    expect(await usersWithEmail(email)).toBe(1);
    const mails = mailTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain('Sign in with your existing Bloom account');
    expect(mails[1]).not.toContain('/setpassword/');
    const again = await invite(person(email));
    expect(again.status).toBe(409);
    expect(outcomeText(again.body)).toBe('User is already a member of this project');
    expect(await membershipsOfEmail(email)).toBe(2);
  });

  test('sendEmail: false sends nothing', async () => {
    const email = uniqueEmail('quiet');
    expect((await invite({ ...person(email), sendEmail: false })).status).toBe(200);
    expect(mailTo(email)).toEqual([]);
  });

  test("SPEC §6 non-admins are 403 (patient, practitioner, another project's admin), anonymous 401; nothing is created", async () => {
    const email = uniqueEmail('refused');
    for (const tokens of [clinic.maria, clinic.chen, clinic.otherAdmin]) {
      const response = await invite(person(email), tokens);
      expect(response.status).toBe(403);
    }
    // Refused before the body is even read.
    expect((await invite({}, clinic.chen)).status).toBe(403);
    const anonymous = await call(
      clinic.server,
      'POST',
      `admin/projects/${clinic.projectId}/invite`,
      undefined,
      {
        body: person(email),
        contentType: 'application/json',
      },
    );
    expect(anonymous.status).toBe(401);
    expect(await usersWithEmail(email)).toBe(0);
    expect(await profilesWithEmail(email)).toBe(0);
    expect(mailTo(email)).toEqual([]);
  });

  test.each([
    [{ firstName: undefined }, 'firstName'],
    [{ lastName: '' }, 'lastName'],
    [{ email: 'not-an-email' }, 'email'],
    [{ email: undefined }, 'email'],
    [{ resourceType: 'Device' }, 'resourceType'],
    [{ resourceType: undefined }, 'resourceType'],
    [{ sendEmail: 'yes' }, 'sendEmail'],
    [{ membership: 'admin' }, 'membership'],
    [{ membership: { project: { reference: 'Project/elsewhere' } } }, 'membership.project'],
    [{ membership: { accessPolicy: { reference: 'Patient/1' } } }, 'membership.accessPolicy'],
    [{ firstName: 'x'.repeat(129) }, 'firstName'],
  ])('bad input %j is 400 on %s and creates nothing', async (change, field) => {
    const body = { ...person(), ...change };
    const response = await invite(body);
    expect(response.status).toBe(400);
    expect(outcomeExpression(response.body)).toEqual([field]);
    if (typeof body.email === 'string') {
      expect(await usersWithEmail(body.email)).toBe(0);
    }
  });

  test("an access policy of another project is 400 'Access policy not found'", async () => {
    const { rows } = await clinic.server.db.query<{ id: string }>(
      "SELECT id FROM resource WHERE resource_type = 'AccessPolicy' AND project = $1 LIMIT 1",
      [clinic.otherProjectId],
    );
    const response = await invite({
      ...person(),
      membership: { accessPolicy: { reference: `AccessPolicy/${rows[0].id}` } },
    });
    expect(response.status).toBe(400);
    expect(outcomeText(response.body)).toBe('Access policy not found');
  });

  test('a body that is not a JSON object is 400; an unknown project for its admin is 403', async () => {
    expect((await invite([person()])).status).toBe(400);
    expect((await invite(person(), clinic.admin, crypto.randomUUID())).status).toBe(403);
  });

  test('with the same Idempotency-Key a repeated invite answers the first membership and creates one', async () => {
    const email = uniqueEmail('retry');
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await invite(person(email), clinic.admin, clinic.projectId, headers);
    const again = await invite(person(email), clinic.admin, clinic.projectId, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await membershipsOfEmail(email)).toBe(1);
    expect(mailTo(email)).toHaveLength(1);
  });

  test('when the email cannot be sent, nothing of the invitation is left: no User, profile or membership', async () => {
    // A port nobody listens on: the SMTP connection is refused.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sibling = await startSibling(clinic, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port) });
    try {
      const email = uniqueEmail('unsent');
      const response = await call(
        sibling,
        'POST',
        `admin/projects/${clinic.projectId}/invite`,
        clinic.admin,
        {
          body: person(email),
          contentType: 'application/json',
        },
      );
      // A mail server that cannot be reached is a bad gateway, named in the outcome.
      expect(response.status).toBe(502);
      expect(response.text).toContain('The mail server did not take the email');
      expect(await usersWithEmail(email)).toBe(0);
      expect(await profilesWithEmail(email)).toBe(0);
      expect(await membershipsOfEmail(email)).toBe(0);
      // Without sending, the same invite goes through on that server.
      const quiet = await call(sibling, 'POST', `admin/projects/${clinic.projectId}/invite`, clinic.admin, {
        body: { ...person(email), sendEmail: false },
        contentType: 'application/json',
      });
      expect(quiet.status).toBe(200);
    } finally {
      await sibling.close();
    }
  });
});
