// MedplumClient methods apps use that the platform client lacked, each with
// MedplumClient's signature and requests, over a fake fetch: readCanonical, createComment,
// createMedia, createDocumentReference, and createBinary's securityContext (X-Security-Context).
import type { Bundle, Communication, DocumentReference, Media, Resource } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import type { FakeFetch, RecordedCall } from './support/fake-fetch';
import { BASE, FHIR, signedInClient } from './support/fhir-client-setup';
import { accessToken } from './support/tokens';

function json(call: RecordedCall): unknown {
  return JSON.parse(call.body ?? 'null');
}

function bundleOf(...resources: Resource[]): Bundle {
  return { resourceType: 'Bundle', type: 'searchset', entry: resources.map((resource) => ({ resource })) };
}

/** Answers a create (POST {type}) with the resource and an id, and an update (PUT) with what was sent. */
function storeLike(fake: FakeFetch, resourceType: string, id: string): void {
  fake.on('POST', `/${resourceType}`, (call) =>
    jsonResponse({ ...(json(call) as object), id, meta: { versionId: '1' } }, 201, 'application/fhir+json'),
  );
  fake.on('PUT', `/${resourceType}/${id}`, (call) =>
    jsonResponse({ ...(json(call) as object), meta: { versionId: '2' } }, 200, 'application/fhir+json'),
  );
}

/** The server's answer to POST Binary: the stored Binary, of the type it was sent as. */
function binaryAnswer(id: string): (call: RecordedCall) => Response {
  return (call) =>
    jsonResponse(
      { resourceType: 'Binary', id, contentType: call.headers['Content-Type'], url: `${FHIR}Binary/${id}` },
      201,
      'application/fhir+json',
    );
}

describe('issue #20 readCanonical(resourceType | resourceType[], url)', () => {
  test('one type: {type}?url=…&_count=1, the first match; undefined when there is none', async () => {
    const { client, fake } = signedInClient();
    const questionnaire = {
      resourceType: 'Questionnaire',
      id: 'q1',
      status: 'active',
      url: 'https://bloom.example/q|2',
    };
    fake.on('GET', '/Questionnaire', (call) =>
      jsonResponse(call.url.includes('missing') ? bundleOf() : bundleOf(questionnaire as Resource)),
    );
    await expect(client.readCanonical('Questionnaire', 'https://bloom.example/q|2')).resolves.toEqual(
      questionnaire,
    );
    await expect(
      client.readCanonical('Questionnaire', 'https://bloom.example/missing'),
    ).resolves.toBeUndefined();
    const url = new URL(fake.callsTo('GET', '/Questionnaire')[0].url);
    expect(url.origin + url.pathname).toBe(`${FHIR}Questionnaire`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ url: 'https://bloom.example/q|2', _count: '1' });
  });

  test('several types: one system-level search with _type, as in Medplum', async () => {
    const { client, fake } = signedInClient();
    const valueSet = {
      resourceType: 'ValueSet',
      id: 'v1',
      status: 'active',
      url: 'https://bloom.example/vs',
    };
    fake.on('GET', '/fhir/R4/', () => jsonResponse(bundleOf(valueSet as Resource)));
    await expect(
      client.readCanonical(['StructureDefinition', 'ValueSet'], 'https://bloom.example/vs'),
    ).resolves.toEqual(valueSet);
    const url = new URL(fake.callsTo('GET', '/fhir/R4/')[0].url);
    expect(url.origin + url.pathname).toBe(FHIR);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      _type: 'StructureDefinition,ValueSet',
      url: 'https://bloom.example/vs',
      _count: '1',
    });
  });
});

describe('issue #20 createComment(resource, text)', () => {
  function clientSignedInAs(profile: Resource): { client: BloomClient; fake: FakeFetch } {
    const fake = fakeFetch();
    fake.on('GET', '/auth/me', () => jsonResponse({ profile }));
    const storage = new PrefixedStorage(new MemoryStorage());
    storage.setObject('activeLogin', { accessToken: accessToken(), refreshToken: 'r1' });
    return { client: new BloomClient({ baseUrl: BASE, fetch: fake.fetch, storage }), fake };
  }

  test('on an Encounter: a completed Communication based on it, its encounter and subject, sent now by the signed-in profile', async () => {
    const { client, fake } = clientSignedInAs({ resourceType: 'Practitioner', id: 'chen' });
    await client.getProfileAsync();
    storeLike(fake, 'Communication', 'c1');
    const before = Date.now();
    const comment = await client.createComment(
      {
        resourceType: 'Encounter',
        id: 'e1',
        status: 'finished',
        class: { code: 'AMB' },
        subject: { reference: 'Patient/maria' },
      },
      'Looks good',
    );
    expect(comment.id).toBe('c1');
    const sent = json(fake.callsTo('POST', '/Communication')[0]) as Communication;
    expect(sent).toEqual({
      resourceType: 'Communication',
      status: 'completed',
      basedOn: [{ reference: 'Encounter/e1' }],
      encounter: { reference: 'Encounter/e1' },
      subject: { reference: 'Patient/maria' },
      sender: expect.objectContaining({ reference: 'Practitioner/chen' }),
      sent: expect.any(String),
      payload: [{ contentString: 'Looks good' }],
    });
    expect(Date.parse(sent.sent as string)).toBeGreaterThanOrEqual(before - 1000);
  });

  test('on a ServiceRequest: its encounter and subject; on a Patient: that patient as subject; on anything else neither', async () => {
    const { client, fake } = clientSignedInAs({ resourceType: 'Practitioner', id: 'chen' });
    await client.getProfileAsync();
    storeLike(fake, 'Communication', 'c1');
    await client.createComment(
      {
        resourceType: 'ServiceRequest',
        id: 's1',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/maria' },
        encounter: { reference: 'Encounter/e9' },
      },
      'a',
    );
    await client.createComment({ resourceType: 'Patient', id: 'maria' }, 'b');
    await client.createComment({ resourceType: 'Observation', id: 'o1', status: 'final', code: {} }, 'c');
    const [onRequest, onPatient, onObservation] = fake
      .callsTo('POST', '/Communication')
      .map((call) => json(call) as Communication);
    expect([onRequest.encounter, onRequest.subject]).toEqual([
      { reference: 'Encounter/e9' },
      { reference: 'Patient/maria' },
    ]);
    expect([onPatient.encounter, onPatient.subject?.reference]).toEqual([undefined, 'Patient/maria']);
    expect([onObservation.encounter, onObservation.subject, onObservation.basedOn]).toEqual([
      undefined,
      undefined,
      [{ reference: 'Observation/o1' }],
    ]);
  });
});

describe('issue #20 createMedia and createDocumentReference (CreateMediaOptions, CreateDocumentReferenceOptions)', () => {
  test('createMedia: Media in preparation, the file uploaded with the Media as X-Security-Context, then the Media completed with it', async () => {
    const { client, fake } = signedInClient();
    storeLike(fake, 'Media', 'm1');
    fake.on('POST', '/Binary', binaryAnswer('b1'));
    const media: Media = await client.createMedia({
      data: 'fake-png',
      contentType: 'image/png',
      filename: 'scan.png',
      additionalFields: { subject: { reference: 'Patient/maria' } },
    });
    expect(media).toMatchObject({ id: 'm1', status: 'completed', subject: { reference: 'Patient/maria' } });
    expect(media.content).toEqual({ contentType: 'image/png', url: `${FHIR}Binary/b1`, title: 'scan.png' });
    const order = fake.calls
      .filter((c) => !c.url.endsWith('/auth/me'))
      .map((c) => `${c.method} ${c.url.split('?')[0]}`);
    expect(order).toEqual([`POST ${FHIR}Media`, `POST ${FHIR}Binary`, `PUT ${FHIR}Media/m1`]);
    expect(json(fake.callsTo('POST', '/Media')[0])).toEqual({
      resourceType: 'Media',
      status: 'preparation',
      content: { contentType: 'image/png' },
      subject: { reference: 'Patient/maria' },
    });
    const [upload] = fake.callsTo('POST', '/Binary');
    expect(upload.url).toBe(`${FHIR}Binary?_filename=scan.png`);
    expect(upload.headers['X-Security-Context']).toBe('Media/m1');
    expect(upload.headers['Content-Type']).toBe('image/png');
    expect(upload.body).toBe('fake-png');
  });

  test('createDocumentReference: a current DocumentReference, the file uploaded (a given security context wins), then pointing at it', async () => {
    const { client, fake } = signedInClient();
    storeLike(fake, 'DocumentReference', 'd1');
    fake.on('POST', '/Binary', binaryAnswer('b2'));
    const document: DocumentReference = await client.createDocumentReference({
      data: 'report',
      contentType: 'application/pdf',
      filename: 'report.pdf',
      securityContext: { reference: 'Patient/maria' },
      additionalFields: { description: 'Ultrasound report' },
    });
    expect(document).toMatchObject({ id: 'd1', status: 'current', description: 'Ultrasound report' });
    expect(document.content).toEqual([
      { attachment: { contentType: 'application/pdf', url: `${FHIR}Binary/b2`, title: 'report.pdf' } },
    ]);
    expect(json(fake.callsTo('POST', '/DocumentReference')[0])).toEqual({
      resourceType: 'DocumentReference',
      status: 'current',
      content: [{ attachment: { contentType: 'application/pdf' } }],
      description: 'Ultrasound report',
    });
    expect(fake.callsTo('POST', '/Binary')[0].headers['X-Security-Context']).toBe('Patient/maria');
  });

  test('createBinary and createAttachment send a securityContext as X-Security-Context, and none without it', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Binary', binaryAnswer('b3'));
    await client.createBinary({
      data: 'x',
      contentType: 'text/plain',
      securityContext: { reference: 'Patient/maria' },
    });
    await client.createAttachment({
      data: 'y',
      contentType: 'text/plain',
      securityContext: { reference: 'Media/m2' },
    });
    await client.createBinary('z', undefined, 'text/plain');
    expect(fake.callsTo('POST', '/Binary').map((c) => c.headers['X-Security-Context'])).toEqual([
      'Patient/maria',
      'Media/m2',
      undefined,
    ]);
  });
});
