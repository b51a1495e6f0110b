// Attachment URLs as stored and as answered (SPEC §3 Attachment, §7 Binary): a signed
// storage URL made by this server (its storage base) is stored as 'Binary/{id}' (it would expire in
// the database); another Bloom server's, and anything else, is stored as written, as is everything
// when the base is unknown; answers recognise this server's storage URLs, fresh or stale, and REST
// answers sign those the caller may read.
import { UnsecuredJWT } from 'jose';
import {
  binaryIdOfAttachmentUrl,
  binaryReferenceOfSignedUrl,
  storedAttachmentUrls,
} from '../../../src/server/binary/attachment-urls';
import { signAttachmentUrls } from '../../../src/server/binary/signed-responses';

const BASE = 'https://api.example/';
/** This server's BinaryUrlSigner.storageBase. */
const STORAGE_BASE = `${BASE}storage/`;
const OTHER = 'https://other.example/';
const ID = '0b7c6a4e-3f5d-4b0e-9a53-6a1d2c3e4f50';

/** A storage URL as signBinaryUrl shapes it; the signature is read, never verified, here. */
function storageUrl(claims: Record<string, unknown>, base = BASE, id = ID): string {
  const signature = new UnsecuredJWT(claims).encode();
  return `${base}storage/${id}?Expires=1700000000&Signature=${signature}`;
}

const ours = { purpose: 'binary-url', sub: `Binary/${ID}`, iss: BASE };
/** What another Bloom server signs for its own Binary of the same id. */
const theirs = (base: string) => storageUrl({ ...ours, iss: base }, base);

describe('issue #8 signed storage URLs are stored as Binary references', () => {
  test('a URL signed by this server becomes Binary/{id}', () => {
    expect(binaryReferenceOfSignedUrl(storageUrl(ours), STORAGE_BASE)).toBe(`Binary/${ID}`);
  });

  test.each([
    ['another host', OTHER],
    ['another path on this host', `${BASE}other/`],
  ])('a URL signed by another Bloom server (%s) is not this server’s Binary', (_name, base) => {
    // A well-formed signature whose issuer is its URL's own base: only the base tells it apart.
    expect(binaryReferenceOfSignedUrl(theirs(base), STORAGE_BASE)).toBeUndefined();
    // The same URL is that server's own.
    expect(binaryReferenceOfSignedUrl(theirs(base), `${base}storage/`)).toBe(`Binary/${ID}`);
  });

  test.each([
    ['another purpose', storageUrl({ ...ours, purpose: 'ws-binding' })],
    ['a signature naming another Binary', storageUrl({ ...ours, sub: 'Binary/other' })],
    ['a URL on another base than its issuer', storageUrl(ours, 'https://elsewhere.example/')],
    ['a URL on this base issued by another server', storageUrl({ ...ours, iss: OTHER })],
    ['no issuer', storageUrl({ purpose: 'binary-url', sub: `Binary/${ID}` })],
    ['a signature that is no JWT', `${BASE}storage/${ID}?Expires=1&Signature=stale`],
    ['no signature', `${BASE}storage/${ID}?Expires=1`],
    ['no query', `${BASE}storage/${ID}`],
    ['an unsafe id', storageUrl({ ...ours, sub: 'Binary/../x' }, BASE, '../x')],
    ['an outside image', 'https://images.example/storage/photo.png?Signature=x'],
  ])('%s is stored as written', (_name, url) => {
    expect(binaryReferenceOfSignedUrl(url, STORAGE_BASE)).toBeUndefined();
  });

  test('every url of this server is rewritten, nested and in arrays; the rest is untouched', () => {
    const signed = storageUrl(ours);
    const foreign = theirs(OTHER);
    const communication = {
      resourceType: 'Communication',
      status: 'completed',
      payload: [
        { contentString: 'see storage/ later' },
        { contentAttachment: { contentType: 'image/png', url: signed, title: 'photo.png' } },
        { contentAttachment: { url: 'https://images.example/a.png' } },
        { contentAttachment: { contentType: 'image/png', url: foreign } },
      ],
      note: [{ text: signed }],
    };
    const stored = storedAttachmentUrls(communication, STORAGE_BASE);
    expect(stored).toEqual({
      ...communication,
      payload: [
        communication.payload[0],
        { contentAttachment: { contentType: 'image/png', url: `Binary/${ID}`, title: 'photo.png' } },
        communication.payload[2],
        communication.payload[3],
      ],
    });
    // The written resource itself is not changed.
    expect(communication.payload[1].contentAttachment?.url).toBe(signed);
  });

  test('a resource without a storage URL is the same object', () => {
    const patient = { resourceType: 'Patient', photo: [{ url: 'Binary/1' }] };
    expect(storedAttachmentUrls(patient, STORAGE_BASE)).toBe(patient);
  });

  test('without a storage base (system, seed) nothing is rewritten, not even this server’s URL', () => {
    const communication = {
      resourceType: 'Communication',
      payload: [
        { contentAttachment: { url: storageUrl(ours) } },
        { contentAttachment: { url: theirs(OTHER) } },
      ],
    };
    expect(storedAttachmentUrls(communication, undefined)).toBe(communication);
    expect(storedAttachmentUrls(communication, '')).toBe(communication);
  });
});

describe('issue #8 answers recognise this server’s Binaries', () => {
  const signer = { fhirBase: `${BASE}fhir/R4/`, storageBase: `${BASE}storage/` };

  test.each([
    ['a reference', `Binary/${ID}`, ID],
    ['an absolute Binary URL', `${BASE}fhir/R4/Binary/${ID}`, ID],
    ['a signed storage URL', storageUrl(ours), ID],
    ['a stale storage URL', `${BASE}storage/${ID}?Expires=1&Signature=stale`, ID],
    ['another server’s storage URL', storageUrl(ours, 'https://elsewhere.example/'), undefined],
    ['a storage URL without a query', `${BASE}storage/${ID}`, undefined],
    ['an outside image', 'https://images.example/a.png', undefined],
  ])('%s', (_name, url, id) => {
    expect(binaryIdOfAttachmentUrl(url, signer)).toBe(id);
  });
});

describe('issue #8 REST answers sign attachment URLs the caller may read', () => {
  const signer = {
    fhirBase: `${BASE}fhir/R4/`,
    storageBase: `${BASE}storage/`,
    sign: (id: string) => Promise.resolve(`${BASE}storage/${id}?Expires=2&Signature=fresh`),
  };
  const readable = new Set(['mine', ID]);
  const mayRead = (id: string) => Promise.resolve(readable.has(id));

  test('readable Binaries are signed once each; others, outside URLs and Bundle requests stay', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'history',
      link: [{ relation: 'self', url: `${BASE}fhir/R4/Communication?_count=2` }],
      entry: [
        {
          fullUrl: `${BASE}fhir/R4/Communication/1`,
          request: { method: 'PUT', url: 'Binary/mine' },
          resource: {
            resourceType: 'Communication',
            payload: [
              { contentAttachment: { url: 'Binary/mine', contentType: 'image/png' } },
              { contentAttachment: { url: 'Binary/theirs' } },
              { contentAttachment: { url: `${BASE}storage/${ID}?Expires=1&Signature=stale` } },
              { contentAttachment: { url: 'https://images.example/a.png' } },
            ],
          },
        },
        { resource: { resourceType: 'Media', content: { url: `${BASE}fhir/R4/Binary/mine` } } },
      ],
    };
    const checked: string[] = [];
    const answer = await signAttachmentUrls(bundle, signer, (id) => {
      checked.push(id);
      return mayRead(id);
    });
    expect(checked.sort()).toEqual([ID, 'mine', 'theirs'].sort());
    expect(answer.entry[0].request?.url).toBe('Binary/mine');
    expect(answer.link[0].url).toBe(bundle.link[0].url);
    expect(answer.entry[0].resource.payload?.map((p) => p.contentAttachment.url)).toEqual([
      `${BASE}storage/mine?Expires=2&Signature=fresh`,
      'Binary/theirs',
      `${BASE}storage/${ID}?Expires=2&Signature=fresh`,
      'https://images.example/a.png',
    ]);
    expect(answer.entry[1].resource).toEqual({
      resourceType: 'Media',
      content: { url: `${BASE}storage/mine?Expires=2&Signature=fresh` },
    });
    // The answer is a copy: what was read is unchanged.
    expect(bundle.entry[0].resource.payload?.[0].contentAttachment.url).toBe('Binary/mine');
  });

  test('nothing to sign, or nothing readable: the same object', async () => {
    const plain = { resourceType: 'Patient', photo: [{ url: 'https://images.example/a.png' }] };
    expect(await signAttachmentUrls(plain, signer, mayRead)).toBe(plain);
    const foreign = { resourceType: 'Patient', photo: [{ url: 'Binary/theirs' }] };
    expect(await signAttachmentUrls(foreign, signer, mayRead)).toBe(foreign);
  });
});
