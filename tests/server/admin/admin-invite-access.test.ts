// POST admin/projects/{projectId}/invite with Medplum's membership.access (SPEC §6, §7): policies
// with parameters are stored on the new membership; a policy of another project, a malformed
// entry or parameter, or %profile as a parameter are 400 naming the field, and nothing is created.
import type { ProjectMembership } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { outcomeExpression, uniqueEmail } from '../auth/support/auth-fixtures';

describe.each(databases())('admin invite with membership.access on %s', (_engine, kind) => {
  let clinic: Clinic;
  let ownPolicy: string;
  let otherPolicy: string;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    const policyOf = async (project: string) =>
      (
        await clinic.server.db.query<{ id: string }>(
          "SELECT id FROM resource WHERE resource_type = 'AccessPolicy' AND project = $1 LIMIT 1",
          [project],
        )
      ).rows[0].id;
    ownPolicy = `AccessPolicy/${await policyOf(clinic.projectId)}`;
    otherPolicy = `AccessPolicy/${await policyOf(clinic.otherProjectId)}`;
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  const invite = (access: unknown) =>
    call<ProjectMembership>(
      clinic.server,
      'POST',
      `admin/projects/${clinic.projectId}/invite`,
      clinic.admin,
      {
        body: {
          resourceType: 'Patient',
          firstName: 'Ines',
          lastName: 'Varga',
          email: uniqueEmail('ines'),
          sendEmail: false,
          membership: { access },
        },
        contentType: 'application/json',
      },
    );

  test('a policy with a %patient parameter is stored on the membership as sent', async () => {
    const maria = clinic.maria.profile?.reference as string;
    const response = await invite([
      {
        policy: { reference: ownPolicy },
        parameter: [{ name: 'patient', valueReference: { reference: maria } }],
      },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.access).toEqual([
      {
        policy: { reference: ownPolicy },
        parameter: [{ name: 'patient', valueReference: { reference: maria } }],
      },
    ]);
    // access given: the default patient policy is not added on top.
    expect(response.body.accessPolicy).toBeUndefined();
  });

  test('bad entries are 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [[{ policy: { reference: otherPolicy } }], 'membership.access[0].policy'],
      [[{ policy: { reference: 'Patient/1' } }], 'membership.access[0].policy'],
      [[{}], 'membership.access[0].policy'],
      [{ policy: { reference: ownPolicy } }, 'membership.access'],
      [
        [{ policy: { reference: ownPolicy }, parameter: [{ name: 'profile', valueString: 'x' }] }],
        'membership.access[0].parameter[0].name',
      ],
      [
        [{ policy: { reference: ownPolicy }, parameter: [{ name: 'org' }] }],
        'membership.access[0].parameter[0]',
      ],
      [[{ policy: { reference: ownPolicy }, extra: 1 }], 'membership.access[0].extra'],
    ];
    for (const [access, field] of cases) {
      const response = await invite(access);
      expect([field, response.status]).toEqual([field, 400]);
      expect(outcomeExpression(response.body)).toEqual([field]);
    }
  });
});
