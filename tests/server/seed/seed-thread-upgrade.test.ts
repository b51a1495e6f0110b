// An operator upgrading Bloom keeps her patients' messages (SPEC §3 Communication, §6, §7 GraphQL
// CommunicationList): a clinic seeded before threads (messages without partOf, no thread headers,
// the patient AccessPolicy without its Communication writeConstraint) is upgraded on the next
// start. Each patient's old messages join one new thread header, the Messages screen's query finds
// them, the seeded patient policy becomes the current one, and a second start writes nothing.
// Real server over HTTP, real sign-ins, PGlite and PostgreSQL.
import type { AccessPolicy, Communication, Project, ProjectMembership } from '@medplum/fhirtypes';
import { print } from 'graphql';
import { CommunicationListDocument } from '../../../src/graphql/generated/operations';
import type { CommunicationListQuery } from '../../../src/graphql/generated/operations';
import { APPOINTMENT_REQUEST_CATEGORY } from '../../../src/fhir/message-threads';
import { parseSearchRequest } from '../../../src/fhir/search/parse';
import { Repository, systemContext } from '../../../src/server/repo';
import { buildPatientAccessPolicy, seedDemoClinic, upgradeMessageThreads } from '../../../src/server/seed';
import { earlierSeedPolicies } from '../../../src/server/seed/patient-policy-upgrade';
import { signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call, DEMO_PASSWORD, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

describe.each(databases())('a clinic seeded before threads is upgraded on start, on %s', (_engine, kind) => {
  let clinic: Clinic;
  let repo: Repository;
  let maria: string;
  let aisha: string;
  let chen: string;
  /** Each patient's old messages by id, as the earlier seed left them. */
  const old = new Map<string, Communication[]>();
  /** Communications that are not old Bloom messages, with their version before the upgrade. */
  let untouched: Communication[];
  let policyId: string;
  let firstRun: { threads: number; messages: number };

  async function search(query: Record<string, string>): Promise<Communication[]> {
    return (await repo.search<Communication>(parseSearchRequest({ resourceType: 'Communication', query })))
      .resources;
  }

  /** Her thread headers with the topic the upgrade gives. */
  async function newHeaders(patient: string): Promise<Communication[]> {
    const headers = await search({ subject: patient, 'part-of:missing': 'true' });
    return headers.filter((h) => h.topic?.text === 'Messages with my care team');
  }

  function create(resource: Communication): Promise<Communication> {
    return repo.withContext(systemContext(clinic.projectId)).createResource(resource);
  }

  /** The start of a server: the demo seed's upgrades, then the threads (as main.ts runs them). */
  async function start(): Promise<{ threads: number; messages: number }> {
    await seedDemoClinic(repo);
    return upgradeMessageThreads(repo);
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    repo = new Repository(clinic.server.db, systemContext());
    maria = clinic.maria.profile?.reference as string;
    aisha = clinic.aisha.profile?.reference as string;

    // Rewrite the seeded clinic to the shape an earlier Bloom left: messages without partOf (the
    // earlier seed wrote no category), no headers, the earlier patient policy.
    for (const patient of [maria, aisha]) {
      const [header] = await search({ subject: patient, 'part-of:missing': 'true' });
      const messages = await search({ 'part-of': `Communication/${header.id}` });
      const rewritten: Communication[] = [];
      for (const { partOf: _partOf, ...message } of messages) {
        rewritten.push((await repo.updateResource<Communication>(message)).resource);
      }
      await repo.deleteResource('Communication', header.id as string);
      old.set(patient, rewritten);
    }
    chen = old.get(maria)?.find((m) => m.sender?.reference?.startsWith('Practitioner/'))?.sender
      ?.reference as string;
    // An appointment request the app wrote before threads: Bloom's category, to the care team.
    const request = await create({
      resourceType: 'Communication',
      status: 'in-progress',
      category: [{ coding: [APPOINTMENT_REQUEST_CATEGORY] }],
      subject: { reference: maria },
      sender: { reference: maria },
      recipient: [{ reference: chen }],
      payload: [{ contentString: 'May I come in next week?' }],
      sent: '2099-01-01T09:00:00.000Z',
    });
    old.get(maria)?.push(request);

    // Not old Bloom messages: another category, a header of another thread with its message, and
    // an empty header (a topic, no messages yet).
    const otherCategory = await create({
      resourceType: 'Communication',
      status: 'completed',
      category: [{ coding: [{ system: 'http://example.org/category', code: 'reminder' }] }],
      subject: { reference: maria },
      recipient: [{ reference: maria }],
      payload: [{ contentString: 'Your appointment is tomorrow' }],
    });
    const otherHeader = await create({
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: aisha },
      recipient: [{ reference: aisha }, { reference: chen }],
      topic: { text: 'Another thread' },
    });
    const otherMessage = await create({
      resourceType: 'Communication',
      status: 'completed',
      partOf: [{ reference: `Communication/${otherHeader.id}` }],
      subject: { reference: aisha },
      sender: { reference: aisha },
      recipient: [{ reference: chen }],
      payload: [{ contentString: 'In another thread' }],
      sent: '2020-01-01T09:00:00.000Z',
    });
    const emptyHeader = await create({
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: aisha },
      recipient: [{ reference: aisha }],
      topic: { text: 'Nothing yet' },
    });
    untouched = [otherCategory, otherHeader, otherMessage, emptyHeader];

    const project = await repo.readResource<Project>('Project', clinic.projectId);
    policyId = project.defaultPatientAccessPolicy?.reference?.split('/')[1] as string;
    const [earlier] = earlierSeedPolicies();
    await repo.updateResource<AccessPolicy>({ ...earlier, id: policyId });

    firstRun = await start();
  }, 180_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  test("each patient's old messages are partOf one new header about her, with her care team and the newest sent", async () => {
    expect(firstRun).toEqual({ threads: 2, messages: 11 + 2 });
    for (const patient of [maria, aisha]) {
      const messages = old.get(patient) ?? [];
      const headers = await newHeaders(patient);
      expect(headers).toHaveLength(1);
      const [header] = headers;
      const newest = messages.map((m) => m.sent as string).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
      expect(header).toMatchObject({
        status: 'in-progress',
        subject: { reference: patient },
        sender: { reference: patient },
        topic: { text: 'Messages with my care team' },
        sent: newest,
      });
      expect(header.partOf).toBeUndefined();
      expect(header.meta?.project).toBe(clinic.projectId);
      expect(header.recipient?.map((r) => r.reference)).toEqual([patient, chen]);
      for (const message of messages) {
        const now = await repo.readResource<Communication>('Communication', message.id as string);
        expect(now.partOf).toEqual([{ reference: `Communication/${header.id}` }]);
        expect(now.meta?.versionId).not.toBe(message.meta?.versionId);
        // A new version: the one before is kept in its history.
        const history = await repo.readHistory('Communication', message.id as string, {
          count: 2,
          offset: 0,
        });
        expect(history.items.map((h) => h.versionId)).toEqual([now.meta?.versionId, message.meta?.versionId]);
        expect(history.items[1].resource).toEqual(message);
      }
    }
  });

  test('a Communication that is not an old Bloom message is left as it was', async () => {
    for (const before of untouched) {
      const now = await repo.readResource<Communication>('Communication', before.id as string);
      expect(now).toEqual(before);
    }
  });

  test("the Messages screen's query (CommunicationList) finds her thread and her old messages", async () => {
    const tokens = await signIn(clinic.server.baseUrl, 'maria@bloom.example', DEMO_PASSWORD);
    const answer = await call<{ data: CommunicationListQuery }>(
      clinic.server,
      'POST',
      'fhir/R4/$graphql',
      tokens,
      {
        body: { query: print(CommunicationListDocument), variables: { subject: maria, count: 100 } },
        contentType: 'application/json',
      },
    );
    expect(answer.status).toBe(200);
    const [thread] = answer.body.data.CommunicationList ?? [];
    expect(thread?.topic?.text).toBe('Messages with my care team');
    const ids = (thread?.messages ?? []).map((m) => m?.id).sort();
    expect(ids).toEqual((old.get(maria) ?? []).map((m) => m.id).sort());
  });

  test('the seeded patient policy is the current one: Maria PATCHes her header (200), not Aisha’s (404) nor a message (403)', async () => {
    const policy = await repo.readResource<AccessPolicy>('AccessPolicy', policyId);
    const { id: _id, meta: _meta, ...content } = policy;
    expect(content).toEqual(buildPatientAccessPolicy());
    // Signed in again, as after a restart.
    const tokens: Tokens = await signIn(clinic.server.baseUrl, 'maria@bloom.example', DEMO_PASSWORD);
    const [mariaHeader] = await newHeaders(maria);
    const [aishaHeader] = await newHeaders(aisha);
    const patch = (id: string) =>
      call(clinic.server, 'PATCH', `fhir/R4/Communication/${id}`, tokens, {
        body: [{ op: 'add', path: '/sent', value: '2099-02-01T10:00:00.000Z' }],
        contentType: 'application/json-patch+json',
      });
    expect((await patch(mariaHeader.id as string)).status).toBe(200);
    expect((await patch(aishaHeader.id as string)).status).toBe(404);
    const ownMessage = old.get(maria)?.find((m) => m.sender?.reference === maria);
    expect((await patch(ownMessage?.id as string)).status).toBe(403);
  });

  test('a second start changes nothing', async () => {
    const all = await search({ _count: '1000' });
    const policy = await repo.readResource<AccessPolicy>('AccessPolicy', policyId);
    const project = await repo.readResource<Project>('Project', clinic.projectId);
    expect(await start()).toEqual({ threads: 0, messages: 0 });
    const after = await search({ _count: '1000' });
    expect(after.map((c) => `${c.id}@${c.meta?.versionId}`).sort()).toEqual(
      all.map((c) => `${c.id}@${c.meta?.versionId}`).sort(),
    );
    expect((await repo.readResource<AccessPolicy>('AccessPolicy', policyId)).meta?.versionId).toBe(
      policy.meta?.versionId,
    );
    expect((await repo.readResource<Project>('Project', clinic.projectId)).meta?.versionId).toBe(
      project.meta?.versionId,
    );
  });

  test('a patient policy an admin wrote is left as it is', async () => {
    const edited = (
      await repo.updateResource<AccessPolicy>({
        ...earlierSeedPolicies()[0],
        id: policyId,
        name: 'Our own patient rules',
      })
    ).resource;
    await start();
    expect((await repo.readResource<AccessPolicy>('AccessPolicy', policyId)).meta?.versionId).toBe(
      edited.meta?.versionId,
    );
  });
});

describe.each(databases())(
  "an earlier seed's staff memberships get the staff and admin policies on start, on %s",
  (_engine, kind) => {
    let clinic: Clinic;
    let repo: Repository;

    beforeAll(async () => {
      clinic = await startClinic(kind);
      repo = new Repository(clinic.server.db, systemContext());
    }, 180_000);

    afterAll(async () => {
      await clinic?.server.close();
    });

    async function membershipOf(email: string): Promise<ProjectMembership> {
      const query = { project: `Project/${clinic.projectId}`, _count: '100' };
      const all = (
        await repo.search<ProjectMembership>(parseSearchRequest({ resourceType: 'ProjectMembership', query }))
      ).resources;
      return all.find((m) => m.user?.display === email) as ProjectMembership;
    }

    async function policyName(reference: string | undefined): Promise<string | undefined> {
      return (await repo.readResource<AccessPolicy>('AccessPolicy', reference?.split('/')[1] as string)).name;
    }

    test('SPEC §6 Dr. Chen gets the staff policy, the admin staff + admin as access[]; an edited membership and a second start are left alone', async () => {
      const asProject = repo.withContext(systemContext(clinic.projectId));
      // As an earlier seed wrote them: no policy at all.
      const chen = await membershipOf('dr.chen@bloom.example');
      const admin = await membershipOf('admin@bloom.example');
      const { accessPolicy: _a, ...chenEarlier } = chen;
      const { access: _b, ...adminEarlier } = admin;
      await asProject.updateResource<ProjectMembership>(chenEarlier);
      await asProject.updateResource<ProjectMembership>(adminEarlier);

      await seedDemoClinic(repo);
      const chenNow = await membershipOf('dr.chen@bloom.example');
      const adminNow = await membershipOf('admin@bloom.example');
      expect(await policyName(chenNow.accessPolicy?.reference)).toBe('Bloom clinic staff');
      expect(adminNow.admin).toBe(true);
      expect(await Promise.all((adminNow.access ?? []).map((a) => policyName(a.policy?.reference)))).toEqual([
        'Bloom clinic staff',
        'Bloom admin',
      ]);

      // A second start writes nothing.
      await seedDemoClinic(repo);
      expect((await membershipOf('dr.chen@bloom.example')).meta?.versionId).toBe(chenNow.meta?.versionId);
      expect((await membershipOf('admin@bloom.example')).meta?.versionId).toBe(adminNow.meta?.versionId);

      // An admin's own choice (no policy, but an externalId she set) is not a seed's: left as it is.
      const { accessPolicy: _c, ...edited } = chenNow;
      const stored = (await asProject.updateResource<ProjectMembership>({ ...edited, externalId: 'staff-7' }))
        .resource;
      await seedDemoClinic(repo);
      const after = await membershipOf('dr.chen@bloom.example');
      expect(after.meta?.versionId).toBe(stored.meta?.versionId);
      expect(after.accessPolicy).toBeUndefined();
    });
  },
);
