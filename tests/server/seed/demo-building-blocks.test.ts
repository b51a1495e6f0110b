// The small pieces the demo clinic is built from: the calendar of relative dates, the transaction
// builder and its stable urn:uuids, the hand-written PDF and the demo accounts.
import {
  DEFAULT_DEMO_PASSWORD,
  DEMO_ACCOUNTS,
  getDemoAccount,
  getDemoPassword,
} from '../../../src/server/seed/demo/accounts';
import { DemoCalendar } from '../../../src/server/seed/demo/calendar';
import { buildTextPdf } from '../../../src/server/seed/demo/pdf-document';
import { TransactionBuilder, uuidFromKey } from '../../../src/server/seed/demo/transaction-builder';

describe('DemoCalendar', () => {
  // Wednesday 2026-03-11, late evening: day zero is still that Wednesday (UTC).
  const calendar = new DemoCalendar(new Date('2026-03-11T23:30:00Z'));

  test('offsets count whole days from midnight UTC of the seeding day', () => {
    expect(calendar.at(0)).toBe('2026-03-11T00:00:00Z');
    expect(calendar.at(1, 9)).toBe('2026-03-12T09:00:00Z');
    expect(calendar.at(-1, 16, 45)).toBe('2026-03-10T16:45:00Z');
    expect(calendar.at(-20, 8)).toBe('2026-02-19T08:00:00Z');
    expect(calendar.date(30)).toBe('2026-04-10');
  });

  test('weekdays: Saturday and Sunday move to Monday going forward, Friday going back', () => {
    expect(calendar.isWeekday(0)).toBe(true);
    expect(calendar.isWeekday(3)).toBe(false); // Saturday
    expect(calendar.weekdayOnOrAfter(3)).toBe(5); // Monday
    expect(calendar.weekdayOnOrBefore(4)).toBe(2); // Friday
    expect(calendar.weekdayOnOrAfter(2)).toBe(2);
  });

  test('dayOf gives the day offset an instant falls on, the inverse of at()', () => {
    expect(calendar.dayOf('2026-03-11T00:00:00Z')).toBe(0);
    expect(calendar.dayOf('2026-03-11T23:59:59Z')).toBe(0);
    expect(calendar.dayOf(calendar.at(45, 16))).toBe(45);
    expect(calendar.dayOf('2026-03-10T16:45:00+00:00')).toBe(-1);
    expect(calendar.dayOf('2026-03-12T01:00:00+02:00')).toBe(0);
    expect(() => calendar.dayOf('soon')).toThrow('Not a date: soon');
  });

  test('birth dates give the same age whether or not the birthday has passed this year', () => {
    expect(calendar.birthDate(31, 3, 14)).toBe('1994-03-14'); // birthday in 3 days: still 31
    expect(calendar.birthDate(31, 3, 11)).toBe('1995-03-11'); // birthday today: just turned 31
    expect(calendar.birthDate(27, 1, 2)).toBe('1999-01-02');
  });

  test('an invalid date is refused', () => {
    expect(() => new DemoCalendar(new Date(Number.NaN))).toThrow('DemoCalendar needs a valid date');
  });
});

describe('TransactionBuilder', () => {
  test('entries are POSTs with a urn:uuid fullUrl, and references carry the display', () => {
    const tx = new TransactionBuilder();
    const ref = tx.add('patient-x', { resourceType: 'Patient' }, 'X');
    tx.add('observation-x', {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'x' },
      subject: ref,
    });
    const bundle = tx.build();
    expect(bundle.type).toBe('transaction');
    expect(ref).toEqual({ reference: `urn:uuid:${uuidFromKey('patient-x')}`, display: 'X' });
    expect(bundle.entry?.[1]).toMatchObject({
      request: { method: 'POST', url: 'Observation' },
      resource: { subject: ref },
    });
    expect(tx.ref('patient-x')).toEqual({ reference: ref.reference });
  });

  test('a duplicate key or a reference to an unknown key throws', () => {
    const tx = new TransactionBuilder();
    tx.add('a', { resourceType: 'Patient' });
    expect(() => tx.add('a', { resourceType: 'Patient' })).toThrow('Duplicate demo resource key: a');
    expect(() => tx.ref('b')).toThrow('Unknown demo resource key: b');
  });

  test('uuidFromKey is stable, well formed (version 8, RFC variant) and differs between keys', () => {
    const ids = ['patient-maria', 'patient-aisha', 'slot-dr-chen-1-9', 'slot-dr-chen-1-10', ''].map(
      uuidFromKey,
    );
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(uuidFromKey('patient-maria')).toBe(ids[0]);
  });
});

describe('buildTextPdf', () => {
  test('escapes PDF string delimiters and replaces non-ASCII characters', () => {
    const pdf = buildTextPdf('T', ['a (b) c\\d', 'café']);
    expect(pdf).toContain('(a \\(b\\) c\\\\d) Tj');
    expect(pdf).toContain('(caf?) Tj');
  });

  test('the trailer points at the xref table and the table at each object', () => {
    const pdf = buildTextPdf('Title', ['one line']);
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.slice(xrefAt, xrefAt + 9)).toBe('xref\n0 6\n');
    const rows = pdf.slice(xrefAt).split('\n').slice(3, 8);
    rows.forEach((row, index) => {
      expect(row).toMatch(/^\d{10} 00000 n $/);
      expect(pdf.startsWith(`${index + 1} 0 obj`, Number(row.slice(0, 10)))).toBe(true);
    });
  });
});

describe('demo accounts (issue #2 item 5: names documentation and tests rely on)', () => {
  test('the four sign-ins with their stable names and emails', () => {
    expect(DEMO_ACCOUNTS.map((a) => [a.role, a.email, `${a.givenName} ${a.familyName}`])).toEqual([
      ['patient', 'maria@bloom.example', 'Maria Garcia'],
      ['patient', 'aisha@bloom.example', 'Aisha Khan'],
      ['practitioner', 'dr.chen@bloom.example', 'Lily Chen'],
      ['admin', 'admin@bloom.example', 'Bloom Admin'],
    ]);
    expect(getDemoAccount('maria').profileType).toBe('Patient');
    expect(() => getDemoAccount('nobody' as 'maria')).toThrow('Unknown demo account: nobody');
  });

  test("the password is 'bloom-demo' unless DEMO_PASSWORD is set and non-empty", () => {
    expect(DEFAULT_DEMO_PASSWORD).toBe('bloom-demo');
    expect(getDemoPassword({})).toBe('bloom-demo');
    expect(getDemoPassword({ DEMO_PASSWORD: '' })).toBe('bloom-demo');
    expect(getDemoPassword({ DEMO_PASSWORD: 's3cret!' })).toBe('s3cret!');
  });
});
