// Medplum's ResourceTable and ResourceForm (@medplum/react 5.2.13, unchanged) on the demo patient
// Maria as Dr. Chen: both need the schema Bloom answers over $graphql (StructureDefinitionList and
// SearchParameterList, as Medplum's server has them), and the form's save must reach Bloom.
import type { Patient } from '@medplum/fhirtypes';
import { demoApiClient, demoPatientId } from '../../e2e/support/demo-sign-in';
import { databases } from '../../server/support/test-databases';
import { useMedplumReactSuite } from './support/suite';

describe.each(databases())(
  "Medplum's ResourceTable and ResourceForm against Bloom on %s",
  (_engine, kind) => {
    const suite = useMedplumReactSuite({ database: kind });
    async function readMaria(): Promise<Patient> {
      const client = await demoApiClient(suite.demo.bloom, 'dr.chen@bloom.example');
      const id = await demoPatientId(suite.demo.bloom, 'maria@bloom.example');
      return client.readResource<Patient>('Patient', id, { cache: 'no-cache' });
    }

    test('ResourceTable shows the demo patient Maria field by field', async () => {
      const maria = await readMaria();
      const { page } = await suite.signIn('dr.chen@bloom.example', `/table/Patient/${maria.id}`);
      // The table is a description list: each field's name (dt) and its value (dd).
      await page.locator('dl dt').getByText('General Practitioner', { exact: true }).waitFor();
      // The practitioner and organization are references the table resolves with reads of its own.
      await page.locator('dl dd').getByText('Dr. Lily Chen').waitFor();
      await page.locator('dl dd').getByText('Bloom Clinic').waitFor();
      const fields = await page
        .locator('dl')
        .first()
        .evaluate((list) => {
          const pairs: Record<string, string> = {};
          for (const term of Array.from(list.querySelectorAll(':scope > dt'))) {
            pairs[term.textContent?.trim() ?? ''] = term.nextElementSibling?.textContent?.trim() ?? '';
          }
          return pairs;
        });
      expect(fields).toMatchObject({
        ID: maria.id,
        Active: 'true',
        Name: 'Maria Garcia',
        Gender: maria.gender,
        'Birth Date': maria.birthDate,
        Address: '1450 Maple Street, Apt 3B, Springfield, IL, 62704',
        'General Practitioner': 'Dr. Lily Chen',
        'Managing Organization': 'Bloom Clinic',
      });
      expect(fields.Telecom).toContain('maria@bloom.example [home email]');
    });

    test('ResourceForm edits Maria: the change reaches Bloom and nothing else changes', async () => {
      const before = await readMaria();
      const { page, responses } = await suite.signIn('dr.chen@bloom.example', `/form/Patient/${before.id}`);
      await page.getByRole('button', { name: 'Update' }).waitFor();
      const birthDate = page.getByLabel('Birth Date');
      await expect(birthDate.inputValue()).resolves.toBe(before.birthDate);
      await birthDate.fill('1991-04-05');
      await page.getByRole('button', { name: 'Update' }).click();
      await page
        .getByRole('status')
        .getByText(/^Saved version/)
        .waitFor();

      expect(responses.filter((r) => r.method === 'PUT').map((r) => [r.status, r.url])).toEqual([
        [200, `${suite.demo.bloom.apiBaseUrl}fhir/R4/Patient/${before.id}`],
      ]);
      const after = await readMaria();
      expect(after.birthDate).toBe('1991-04-05');
      expect(after.meta?.versionId).not.toBe(before.meta?.versionId);
      const { meta: _afterMeta, birthDate: _afterBirth, ...restAfter } = after;
      const { meta: _beforeMeta, birthDate: _beforeBirth, ...restBefore } = before;
      expect(restAfter).toEqual(restBefore);
    });
  },
);
