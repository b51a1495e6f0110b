// The Repository knows nothing of Binary: the server gives it the rewrite of this server's signed
// storage URLs as a setting (RepositorySettings.rewriteStoredUrls, SPEC §3 Attachment), and a
// Repository built without it (seed, system work) stores URLs as written.
import type { Communication } from '@medplum/fhirtypes';
import { UnsecuredJWT } from 'jose';
import { storedAttachmentUrlRewriter } from '../../../src/server/binary/attachment-urls';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import type { RepositorySettings } from '../../../src/server/repo';
import { databases } from '../support/test-databases';

const BASE = 'https://api.example/';
const ID = '6f1e2d3c-4b5a-4c6d-8e7f-8091a2b3c4d5';
const signature = new UnsecuredJWT({ purpose: 'binary-url', sub: `Binary/${ID}`, iss: BASE }).encode();
const SIGNED = `${BASE}storage/${ID}?Expires=1700000000&Signature=${signature}`;

const message = (): Communication => ({
  resourceType: 'Communication',
  status: 'completed',
  payload: [{ contentAttachment: { contentType: 'image/png', url: SIGNED } }],
});

const urlOf = (communication: Communication) => communication.payload?.[0]?.contentAttachment?.url;

describe.each(databases())('Repository URL rewrite setting on %s', (_engine, kind) => {
  let db: Database;
  const settings: RepositorySettings = { rewriteStoredUrls: storedAttachmentUrlRewriter(`${BASE}storage/`) };

  beforeAll(async () => {
    db = await kind.open();
  });

  afterAll(async () => {
    await db.close();
  });

  test('a write through a Repository given the setting stores the signed URL as Binary/{id}', async () => {
    const created = await new Repository(db, systemContext(), undefined, settings).createResource(message());
    expect(urlOf(created)).toBe(`Binary/${ID}`);
    const stored = await new Repository(db, systemContext()).readResource<Communication>(
      'Communication',
      created.id as string,
    );
    expect(urlOf(stored)).toBe(`Binary/${ID}`);
  });

  test('transactions and another caller of the same Repository keep the setting', async () => {
    const repo = new Repository(db, systemContext(), undefined, settings);
    const inTransaction = await repo.withTransaction((tx) => tx.createResource(message()));
    const asProject = await repo.withContext(systemContext('p1')).createResource(message());
    expect([urlOf(inTransaction), urlOf(asProject)]).toEqual([`Binary/${ID}`, `Binary/${ID}`]);
  });

  test('without the setting the URL is stored as written', async () => {
    const created = await new Repository(db, systemContext()).createResource(message());
    expect(urlOf(created)).toBe(SIGNED);
  });
});
