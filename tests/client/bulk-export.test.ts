// The platform client's bulkExport against the REAL server (SPEC §4 "202 polling
// every 1000 ms", §7 "POST {type}/$export or {group}/$export with _type, _since, Prefer
// respond-async"): kick-off, polling the status URL to the manifest, and reading the NDJSON files
// through the same client. Medplum's own MedplumClient is checked against the same endpoints, so
// Medplum apps work too. PGlite and PostgreSQL.
import type { Group, Resource, ResourceType } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import type { BloomClient } from '../../src/client';
import type { BulkDataExport } from '../../src/client/platform-client';
import { DEMO_PASSWORD, startExportClinic } from '../server/export/export-clinic';
import type { ExportClinic } from '../server/export/export-clinic';
import { databases } from '../server/support/test-databases';
import { signedInClient } from './support/server-sign-in';

describe.each(databases())(
  'BloomClient bulkExport against the real server on %s (issue #10)',
  (_engine, kind) => {
    let clinic: ExportClinic;
    let chen: BloomClient;
    let maria: BloomClient;

    const signIn = (email: string): Promise<BloomClient> =>
      signedInClient(clinic.config.baseUrl, email, {}, DEMO_PASSWORD);

    /** Each output file read through `client`: one resource per line, of the file's type. */
    async function readFiles(client: BloomClient, manifest: Partial<BulkDataExport>): Promise<Resource[]> {
      const resources: Resource[] = [];
      for (const file of manifest.output ?? []) {
        const text = await client.get<string>(file.url as string);
        expect(typeof text).toBe('string');
        for (const line of text.trim().split('\n')) {
          const resource = JSON.parse(line) as Resource;
          expect(resource.resourceType).toBe(file.type);
          resources.push(resource);
        }
      }
      return resources;
    }

    async function searchKeys(client: BloomClient, resourceType: ResourceType): Promise<string[]> {
      const bundle = await client.search(resourceType, { _count: '1000' });
      return (bundle.entry ?? []).map((entry) => `${resourceType}/${entry.resource?.id}`).sort();
    }

    const keys = (resources: Resource[]) => resources.map((r) => `${r.resourceType}/${r.id}`).sort();

    beforeAll(async () => {
      clinic = await startExportClinic(kind, { pageSize: 5, fileSize: 10 });
      [chen, maria] = await Promise.all([signIn('dr.chen@bloom.example'), signIn('maria@bloom.example')]);
    }, 60_000);

    afterAll(async () => {
      await clinic?.close();
    });

    test('SPEC §4 bulkExport polls the status URL (every 1000 ms) to the manifest; the files read through the client hold every resource once', async () => {
      const started = Date.now();
      const manifest = await chen.bulkExport('', 'Patient,Observation');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(manifest).toMatchObject({
        transactionTime: expect.any(String),
        request: `${clinic.server.fhirUrl}$export?_type=Patient%2CObservation`,
        requiresAccessToken: true,
      });
      const resources = await readFiles(chen, manifest);
      expect(keys(resources)).toEqual(
        [...(await searchKeys(chen, 'Patient')), ...(await searchKeys(chen, 'Observation'))].sort(),
      );
    });

    test('SPEC §7 bulkExport at Patient, Group/{id} and type level, with _since', async () => {
      const fast = { pollStatusPeriod: 100 };
      const patientLevel = await readFiles(
        chen,
        await chen.bulkExport('Patient', 'Patient', undefined, fast),
      );
      expect(keys(patientLevel)).toEqual(await searchKeys(chen, 'Patient'));
      const group = await chen.createResource<Group>({
        resourceType: 'Group',
        type: 'person',
        actual: true,
        member: [{ entity: { reference: maria.getProfile() ? `Patient/${maria.getProfile()?.id}` : '' } }],
      });
      const groupLevel = await readFiles(
        chen,
        await chen.bulkExport(`Group/${group.id}`, 'Patient', undefined, fast),
      );
      expect(keys(groupLevel)).toEqual([`Patient/${maria.getProfile()?.id}`]);
      const typeLevel = await readFiles(
        chen,
        await chen.bulkExport('Practitioner', undefined, undefined, fast),
      );
      expect(keys(typeLevel)).toEqual(await searchKeys(chen, 'Practitioner'));
      const future = new Date(Date.now() + 60_000).toISOString();
      const none = await chen.bulkExport('', 'Patient', future, fast);
      expect(none.output).toEqual([]);
    });

    test("SPEC §6 a patient's bulkExport holds her own record only; naming another patient rejects with the outcome", async () => {
      const own = `Patient/${maria.getProfile()?.id}`;
      const resources = await readFiles(
        maria,
        await maria.bulkExport('Patient', undefined, undefined, { pollStatusPeriod: 100 }),
      );
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((r) => (r.meta?.compartment ?? []).some((c) => c.reference === own))).toBe(true);
      const other = clinic.aisha.profile?.reference as string;
      await expect(
        maria.post(`${maria.fhirUrl('Patient', '$export')}?patient=${other}`, undefined, undefined, {
          headers: { Prefer: 'respond-async' },
          pollStatusOnAccepted: true,
        }),
      ).rejects.toThrow(`You may not export the data of ${other}`);
    });

    test("SPEC §8 bulkExport with an unknown _type or a bad _since rejects with the server's outcome", async () => {
      await expect(chen.bulkExport('', 'Nonsense')).rejects.toThrow(/Unknown resource type 'Nonsense'/);
      await expect(chen.bulkExport('', 'Patient', 'last week')).rejects.toThrow(/_since/);
    });

    test("Medplum's MedplumClient.bulkExport works against the same endpoints (pollStatusOnAccepted) and downloads the files", async () => {
      // @medplum/core expects a global WebSocket when it loads (Node 20 has none).
      (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
      const { MedplumClient } = await import('@medplum/core');
      const medplum = new MedplumClient({
        baseUrl: clinic.config.baseUrl,
        fetch: globalThis.fetch.bind(globalThis),
      });
      medplum.setAccessToken(chen.getAccessToken() as string);
      const manifest = await medplum.bulkExport('', 'Practitioner', undefined, {
        pollStatusOnAccepted: true,
        pollStatusPeriod: 100,
      });
      expect(manifest.output?.length).toBeGreaterThan(0);
      const lines: Resource[] = [];
      for (const file of manifest.output ?? []) {
        const blob = await medplum.download(file.url as string);
        lines.push(
          ...(await blob.text())
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Resource),
        );
      }
      expect(keys(lines)).toEqual(await searchKeys(chen, 'Practitioner'));
    });
  },
);
