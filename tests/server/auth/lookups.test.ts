// The identity lookups and the expression indexes of migration 2 that serve them.
import type { DomainConfiguration, Login, ProjectMembership, User } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  findDomainConfiguration,
  findLoginByCode,
  findMembershipsByProject,
  findMembershipsByUser,
  findUserByEmail,
  findUserByEmailAtScope,
} from '../../../src/server/repo/lookups';
import { databases } from '../support/test-databases';

describe.each(databases())('identity lookups on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
  });

  afterAll(async () => {
    await db.close();
  });

  test('User by email is case-insensitive and ignores deleted users', async () => {
    const user = await repo.createResource<User>({
      resourceType: 'User',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'Ada@Example.org',
    });
    expect((await findUserByEmail(db, 'ada@example.ORG'))?.id).toBe(user.id);
    expect(await findUserByEmail(db, 'ada@example.net')).toBeUndefined();
    await repo.deleteResource('User', user.id as string);
    expect(await findUserByEmail(db, 'ada@example.org')).toBeUndefined();
  });

  test('Users scoped to a project (Medplum invited patients): that project first, then server-wide; other projects never', async () => {
    const make = (project?: string) =>
      repo.createResource<User>({
        resourceType: 'User',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.org',
        ...(project ? { project: { reference: `Project/${project}` } } : {}),
      });
    const inA = await make('pa');
    // Only a scoped User: found without a project (the app names none) and in its own project.
    expect((await findUserByEmail(db, 'grace@example.org'))?.id).toBe(inA.id);
    expect((await findUserByEmail(db, 'grace@example.org', 'pa'))?.id).toBe(inA.id);
    expect(await findUserByEmail(db, 'grace@example.org', 'pb')).toBeUndefined();
    const server = await make();
    const inB = await make('pb');
    expect((await findUserByEmail(db, 'Grace@example.org'))?.id).toBe(server.id);
    expect((await findUserByEmail(db, 'grace@example.org', 'pa'))?.id).toBe(inA.id);
    expect((await findUserByEmail(db, 'grace@example.org', 'pb'))?.id).toBe(inB.id);
    expect((await findUserByEmail(db, 'grace@example.org', 'pc'))?.id).toBe(server.id);
    // The invite's look-up is at exactly one scope.
    expect((await findUserByEmailAtScope(db, 'grace@example.org', undefined))?.id).toBe(server.id);
    expect((await findUserByEmailAtScope(db, 'grace@example.org', 'pb'))?.id).toBe(inB.id);
    expect(await findUserByEmailAtScope(db, 'grace@example.org', 'pc')).toBeUndefined();
  });

  test('memberships by user and by project; inactive ones are not offered to the user', async () => {
    const make = (user: string, project: string, active?: boolean) =>
      repo.createResource<ProjectMembership>({
        resourceType: 'ProjectMembership',
        user: { reference: user },
        project: { reference: project },
        profile: { reference: 'Patient/p1' },
        ...(active === undefined ? {} : { active }),
      });
    const a = await make('User/u-1', 'Project/p-1');
    const b = await make('User/u-1', 'Project/p-2');
    await make('User/u-1', 'Project/p-3', false);
    const c = await make('User/u-2', 'Project/p-1');
    expect((await findMembershipsByUser(db, 'User/u-1')).map((m) => m.id)).toEqual([a.id, b.id]);
    expect((await findMembershipsByProject(db, 'Project/p-1')).map((m) => m.id)).toEqual([a.id, c.id]);
    expect(await findMembershipsByUser(db, 'User/none')).toEqual([]);
  });

  test('Login by code and DomainConfiguration by domain', async () => {
    const login = await repo.createResource<Login>({
      resourceType: 'Login',
      user: { reference: 'User/u-1' },
      authMethod: 'password',
      authTime: new Date().toISOString(),
      code: 'abc123',
    });
    expect((await findLoginByCode(db, 'abc123'))?.id).toBe(login.id);
    expect(await findLoginByCode(db, 'abc124')).toBeUndefined();
    await repo.createResource<DomainConfiguration>({
      resourceType: 'DomainConfiguration',
      domain: 'Clinic.Example',
    });
    expect((await findDomainConfiguration(db, 'clinic.example'))?.domain).toBe('Clinic.Example');
  });

  test('migration 2 created the expression indexes the lookups use', async () => {
    const { rows } = await db.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'resource' AND indexname LIKE 'resource_%' ORDER BY 1",
    );
    expect(rows.map((row) => row.indexname)).toEqual(
      expect.arrayContaining([
        'resource_user_email_idx',
        'resource_membership_user_idx',
        'resource_membership_project_idx',
        'resource_login_code_idx',
        'resource_domain_idx',
      ]),
    );
  });
});
