// Medplum's invite as MedplumClient (@medplum/core 5.2.13, unchanged) sees it against Bloom's real
// server (SPEC §6 project administration, §7 Medplum API): medplum.invite(projectId, body) with each
// InviteRequest field, answered as Medplum's server answers (admin/invite.ts there): 200 and the
// ProjectMembership; a second invite of the same email 409 unless upsert (the same membership) or
// forceNewMembership (a second one); an existing profile with the email reused; a patient's User
// scoped to the project, a practitioner's server-wide; emails lower-cased; non-admins 403; bad
// bodies 400 naming the field. PGlite, and PostgreSQL with TEST_DATABASE_URL.
import crypto from 'node:crypto';
import type { InviteRequest, MedplumClient } from '@medplum/core';
import type { Practitioner, ProjectMembership, RelatedPerson, User } from '@medplum/fhirtypes';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { signIn } from '../../server/auth/support/auth-fixtures';
import { databases } from '../../server/support/test-databases';
import { outcomeOf, rejectionOf, signedInClient } from './support/medplum-client';

describe.each(databases())("Medplum's invite through MedplumClient against Bloom on %s", (_engine, kind) => {
  let clinic: Clinic;
  let admin: MedplumClient;
  let chen: MedplumClient;
  let maria: MedplumClient;
  let otherAdmin: MedplumClient;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    [admin, chen, maria, otherAdmin] = await Promise.all(
      [clinic.admin, clinic.chen, clinic.maria, clinic.otherAdmin].map((tokens) =>
        signedInClient(clinic.server.baseUrl, tokens),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  const email = (prefix: string) => `${prefix}.${crypto.randomUUID().slice(0, 8)}@Bloom.Example`;
  const body = (extra: Partial<InviteRequest> = {}): InviteRequest => ({
    resourceType: 'Practitioner',
    firstName: 'Nadia',
    lastName: 'Okafor',
    email: email('nadia'),
    sendEmail: false,
    ...extra,
  });
  const invite = async (request: InviteRequest, client = admin) =>
    (await client.invite(clinic.projectId, request)) as ProjectMembership;
  /** The stored User (read unrestricted: Users are not in the project's compartment). */
  async function userOf(membership: ProjectMembership): Promise<User> {
    const id = membership.user?.reference?.split('/')[1];
    const { rows } = await clinic.server.db.query<{ content: User }>(
      "SELECT content FROM resource WHERE resource_type = 'User' AND id = $1",
      [id ?? ''],
    );
    return rows[0].content;
  }
  async function refusal(request: unknown, client = admin) {
    const err = await rejectionOf(client.invite(clinic.projectId, request as InviteRequest));
    return outcomeOf(err);
  }

  test('a practitioner: 200 and the ProjectMembership; the email lower-cased; the User server-wide; invitedBy the admin', async () => {
    const request = body();
    const membership = await invite(request);
    expect(membership).toMatchObject({
      resourceType: 'ProjectMembership',
      id: expect.any(String),
      project: { reference: `Project/${clinic.projectId}` },
      user: { reference: expect.stringMatching(/^User\//), display: request.email?.toLowerCase() },
      profile: { reference: expect.stringMatching(/^Practitioner\//), display: 'Nadia Okafor' },
      invitedBy: { reference: expect.stringMatching(/^User\//) },
    });
    const user = await userOf(membership);
    expect(user.email).toBe(request.email?.toLowerCase());
    expect(user.project).toBeUndefined();
    const profile = await admin.readReference(membership.profile as { reference: string });
    expect((profile as Practitioner).telecom).toEqual([
      { system: 'email', use: 'work', value: request.email?.toLowerCase() },
    ]);
  });

  test("a patient: her User belongs to the project, the default patient policy applies, and the invite's password signs her in", async () => {
    const request = body({ resourceType: 'Patient', password: 'amber-willow-3381' });
    const membership = await invite(request);
    expect(membership.profile?.reference).toMatch(/^Patient\//);
    const project = await admin.readResource('Project', clinic.projectId);
    expect(membership.accessPolicy?.reference).toBe(project.defaultPatientAccessPolicy?.reference);
    expect((await userOf(membership)).project).toEqual({ reference: `Project/${clinic.projectId}` });
    const tokens = await signIn(clinic.server.baseUrl, request.email as string, 'amber-willow-3381');
    expect(tokens.profile?.reference).toBe(membership.profile?.reference);
    // scope overrides the default either way.
    const serverPatient = await invite(body({ resourceType: 'Patient', scope: 'server' }));
    expect((await userOf(serverPatient)).project).toBeUndefined();
    const projectDoctor = await invite(body({ scope: 'project' }));
    expect((await userOf(projectDoctor)).project).toEqual({ reference: `Project/${clinic.projectId}` });
  });

  test('the same email in two projects: one server-wide practitioner User, two memberships', async () => {
    const request = body();
    const first = await invite(request);
    const second = (await otherAdmin.invite(clinic.otherProjectId, request)) as ProjectMembership;
    expect(second.project?.reference).toBe(`Project/${clinic.otherProjectId}`);
    expect(second.user?.reference).toBe(first.user?.reference);
  });

  test('a second invite of the same email is 409; upsert answers the same membership with the new fields; forceNewMembership adds one', async () => {
    const request = body({ membership: { admin: true } });
    const first = await invite(request);
    expect(first.admin).toBe(true);
    const again = await refusal(request);
    expect(again).toEqual([
      expect.objectContaining({ code: 'conflict', text: 'User is already a member of this project' }),
    ]);
    const upserted = await invite({ ...request, upsert: true, membership: { admin: false } });
    expect(upserted.id).toBe(first.id);
    expect(upserted.admin).toBe(false);
    expect(upserted.profile?.reference).toBe(first.profile?.reference);
    const other = await admin.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ given: ['Someone'], family: 'Else' }],
    });
    const differentProfile = await refusal({
      ...request,
      upsert: true,
      membership: { profile: { reference: `Practitioner/${other.id}` } },
    });
    expect(differentProfile[0]?.text).toBe(
      'User is already a member of this project with a different profile',
    );
    const forced = await invite({
      ...request,
      forceNewMembership: true,
      membership: { identifier: [{ system: 'urn:bloom:clinic', value: 'north' }] },
    });
    expect(forced.id).not.toBe(first.id);
    expect(forced.user?.reference).toBe(first.user?.reference);
    expect(forced.profile?.reference).toBe(first.profile?.reference);
    expect(forced.identifier).toEqual([{ system: 'urn:bloom:clinic', value: 'north' }]);
  });

  test('a Practitioner that already has the email in the project is reused, not created a second time', async () => {
    const address = email('existing');
    const existing = await admin.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ given: ['Ada'], family: 'Lovelace' }],
      telecom: [{ system: 'email', value: address }],
    });
    const membership = await invite(body({ email: address.toUpperCase() }));
    expect(membership.profile?.reference).toBe(`Practitioner/${existing.id}`);
    // A second profile would carry the lower-cased email (the email search is exact).
    const found = [
      ...(await admin.searchResources('Practitioner', { email: address })),
      ...(await admin.searchResources('Practitioner', { email: address.toLowerCase() })),
    ];
    expect(found.map((p) => p.id)).toEqual([existing.id]);
  });

  test('membership.profile names the profile; of another type or another project it is 400', async () => {
    const chosen = await admin.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ given: ['Bo'], family: 'Ng' }],
    });
    const membership = await invite(
      body({ membership: { profile: { reference: `Practitioner/${chosen.id}` } } }),
    );
    expect(membership.profile?.reference).toBe(`Practitioner/${chosen.id}`);
    const wrongType = await refusal(
      body({ resourceType: 'Patient', membership: { profile: { reference: `Practitioner/${chosen.id}` } } }),
    );
    expect(wrongType[0]?.text).toBe('Profile resourceType does not match request');
    const theirs = await otherAdmin.createResource<Practitioner>({ resourceType: 'Practitioner' });
    const elsewhere = await refusal(
      body({ membership: { profile: { reference: `Practitioner/${theirs.id}` } } }),
    );
    expect(elsewhere[0]?.text).toBe('Profile does not belong to project');
  });

  test('externalId: a User without email, scoped to the project, the id on the membership; the same externalId again is 409', async () => {
    const externalId = crypto.randomUUID();
    const request: InviteRequest = {
      resourceType: 'Patient',
      firstName: 'Bob',
      lastName: 'Jones',
      externalId,
    };
    const membership = await invite(request);
    expect(membership.externalId).toBe(externalId);
    expect(membership.profile?.reference).toMatch(/^Patient\//);
    const user = await userOf(membership);
    expect(user.email).toBeUndefined();
    expect(user.project).toEqual({ reference: `Project/${clinic.projectId}` });
    const again = await refusal({ ...request, firstName: 'Carol' });
    expect(again[0]).toMatchObject({
      code: 'conflict',
      text: expect.stringMatching(/already exists/),
    });
  });

  test('a RelatedPerson relates to the named patient; without one it is 400', async () => {
    const mariaRef = clinic.maria.profile?.reference as string;
    const membership = await invite(
      body({ resourceType: 'RelatedPerson', patient: { reference: mariaRef } as InviteRequest['patient'] }),
    );
    const profile = (await admin.readReference(membership.profile as { reference: string })) as RelatedPerson;
    expect(profile.resourceType).toBe('RelatedPerson');
    expect(profile.patient?.reference).toBe(mariaRef);
    const missing = await refusal(body({ resourceType: 'RelatedPerson' }));
    expect(missing[0]?.text).toBe('Patient is required to create a RelatedPerson');
  });

  test('SPEC §6 a practitioner who is not an admin and a patient are 403, and nothing is created', async () => {
    for (const client of [chen, maria]) {
      const request = body();
      const refused = await refusal(request, client);
      expect(refused[0]?.code).toBe('forbidden');
      const { rows } = await clinic.server.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM resource WHERE resource_type = 'User' AND lower(content->>'email') = lower($1)",
        [request.email ?? ''],
      );
      expect(rows[0].n).toBe(0);
    }
  });

  test.each([
    [{ email: undefined }, 'email', 'Either email or externalId is required'],
    [{ scope: 'global' }, 'scope', "scope must be 'project' or 'server'"],
    [{ password: 'short' }, 'password', 'Password must be at least 8 characters'],
    [{ upsert: 'yes' }, 'upsert', 'upsert must be true or false'],
    [{ forceNewMembership: 1 }, 'forceNewMembership', 'forceNewMembership must be true or false'],
    [{ externalId: 5 }, 'externalId', 'externalId must be a string'],
    [
      { patient: { reference: 'Practitioner/1' } },
      'patient',
      'Patient must be a reference to a Patient resource',
    ],
    [{ membership: { profile: { reference: 'Observation/1' } } }, 'membership.profile', expect.any(String)],
    [{ membership: { admin: 'yes' } }, 'membership.admin', 'membership.admin must be true or false'],
    [{ membership: { identifier: 'north' } }, 'membership.identifier', expect.any(String)],
    [
      { membership: { user: { reference: 'User/1' } } },
      'membership.user',
      'membership.user cannot be set by an invite',
    ],
    [{ mfaRequired: true }, 'mfaRequired', expect.stringContaining('not supported')],
  ])('bad body %j is 400 naming %s', async (change, field, text) => {
    const refused = await refusal({ ...body(), ...change });
    expect(refused).toEqual([expect.objectContaining({ code: 'invalid', expression: [field], text })]);
  });
});
