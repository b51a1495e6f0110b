// The demo clinic data: valid FHIR, self-contained references, dates relative to
// the seeding day, vitals coded as SPEC §3 says, critical interpretations (SPEC §4/§9), slots and
// the past/upcoming splits of SPEC §4.
import type {
  Appointment,
  Communication,
  DiagnosticReport,
  Immunization,
  MedicationRequest,
  Observation,
  Patient,
  Practitioner,
  Reference,
  Resource,
  Slot,
  Specimen,
} from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, MARIA_VITAL_WEEKS, buildDemoClinic } from '../../../src/server/seed/demo';
import { pregnancyProgress } from '../../../src/app/components/pregnancyProgress';
import { validateResource } from '../../../src/fhir';

const DAY_MS = 24 * 60 * 60 * 1000;
// A Tuesday, mid-morning: any time of day must give the same clinic as midnight.
const TODAY = new Date('2026-03-10T10:42:00Z');
const DAY_ZERO = Date.parse('2026-03-10T00:00:00Z');

const { project, bundle } = buildDemoClinic(TODAY);
const entries = bundle.entry ?? [];
const resources = entries.map((entry) => entry.resource as Resource);
const byFullUrl = new Map(entries.map((entry) => [entry.fullUrl as string, entry.resource as Resource]));

function ofType<T extends Resource>(type: T['resourceType']): T[] {
  return resources.filter((resource): resource is T => resource.resourceType === type);
}

function resolve<T extends Resource>(ref: Reference | undefined): T {
  const target = ref?.reference ? byFullUrl.get(ref.reference) : undefined;
  if (!target) {
    throw new Error(`Unresolved reference ${JSON.stringify(ref)}`);
  }
  return target as T;
}

const maria = ofType<Patient>('Patient').find((p) => p.name?.[0]?.given?.[0] === 'Maria') as Patient;
const aisha = ofType<Patient>('Patient').find((p) => p.name?.[0]?.given?.[0] === 'Aisha') as Patient;
const fullUrlOf = (resource: Resource): string =>
  entries.find((entry) => entry.resource === resource)?.fullUrl as string;
const isFor = (patient: Patient) => (ref: Reference | undefined) => ref?.reference === fullUrlOf(patient);

/** Every `reference` string anywhere in a value, with its JSON path. */
function collectReferences(value: unknown, path: string, out: { path: string; reference: string }[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectReferences(item, `${path}[${index}]`, out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'reference' && typeof child === 'string') {
        out.push({ path, reference: child });
      } else {
        collectReferences(child, `${path}.${key}`, out);
      }
    }
  }
}

/** A minimal structural PDF check: header, trailer, and every xref offset pointing at its object. */
function checkPdf(pdf: string): string[] {
  const problems: string[] = [];
  if (!pdf.startsWith('%PDF-1.')) problems.push('no %PDF header');
  if (!pdf.trimEnd().endsWith('%%EOF')) problems.push('no %%EOF');
  const startxref = /startxref\n(\d+)\n%%EOF\s*$/.exec(pdf);
  if (!startxref) return [...problems, 'no startxref'];
  const xrefAt = Number(startxref[1]);
  if (!pdf.startsWith('xref\n', xrefAt)) return [...problems, `startxref ${xrefAt} does not point at xref`];
  const [, countLine, ...rows] = pdf.slice(xrefAt).split('\n');
  const count = Number(countLine.split(' ')[1]);
  for (let n = 1; n < count; n++) {
    const offset = Number(rows[n].slice(0, 10));
    if (!pdf.startsWith(`${n} 0 obj`, offset)) problems.push(`object ${n} not at ${offset}`);
  }
  const stream = /<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/.exec(pdf);
  if (!stream || Number(stream[1]) !== stream[2].length) problems.push('stream length mismatch');
  return problems;
}

describe('demo clinic bundle (issue #2 item 5)', () => {
  test('SPEC §5: the Project, the Bundle and every resource in it pass validateResource', () => {
    const problems = [project, bundle, ...resources].flatMap((resource, index) =>
      validateResource(resource).map(
        (issue) => `#${index} ${resource.resourceType}: ${issue.details?.text} at ${issue.expression}`,
      ),
    );
    expect(problems).toEqual([]);
    expect(project).toMatchObject({ resourceType: 'Project', name: 'Bloom Clinic' });
  });

  test("Medplum's live updates are enabled for the clinic (its components subscribe only then)", () => {
    expect(project.features).toContain('websocket-subscriptions');
  });

  test('the validator does reject a broken demo resource (the check above can fail)', () => {
    const broken = { ...maria, birthDate: 'March 14th' };
    expect(validateResource(broken).map((issue) => issue.expression?.[0])).toContain('Patient.birthDate');
  });

  test('SPEC §3 Bundle: a transaction of POSTs with unique urn:uuid fullUrls', () => {
    expect(bundle.type).toBe('transaction');
    const fullUrls = entries.map((entry) => entry.fullUrl);
    expect(new Set(fullUrls).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.fullUrl).toMatch(
        /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(entry.request).toEqual({ method: 'POST', url: entry.resource?.resourceType });
      expect(entry.resource?.id).toBeUndefined();
    }
  });

  test('every reference points at an entry of the same bundle, of a type the element allows', () => {
    const refs: { path: string; reference: string }[] = [];
    resources.forEach((resource, index) =>
      collectReferences(resource, `${resource.resourceType}#${index}`, refs),
    );
    expect(refs.length).toBeGreaterThan(600);
    const unresolved = refs.filter((ref) => !byFullUrl.has(ref.reference));
    expect(unresolved).toEqual([]);
    for (const report of ofType<DiagnosticReport>('DiagnosticReport')) {
      expect(resolve(report.subject).resourceType).toBe('Patient');
      expect(report.result?.map((ref) => resolve(ref).resourceType)).toEqual(
        report.result?.map(() => 'Observation'),
      );
      expect(report.specimen?.map((ref) => resolve(ref).resourceType)).toEqual(
        report.specimen?.map(() => 'Specimen'),
      );
    }
    for (const slot of ofType<Slot>('Slot')) {
      expect(resolve(slot.schedule).resourceType).toBe('Schedule');
    }
  });

  test('a builder with the same day builds the same bundle (stable fullUrls), another day the same shape', () => {
    expect(buildDemoClinic(new Date(DAY_ZERO)).bundle).toEqual(bundle);
    const later = buildDemoClinic(new Date(DAY_ZERO + 14 * DAY_MS)).bundle;
    expect(later.entry?.map((entry) => entry.fullUrl)).toEqual(entries.map((entry) => entry.fullUrl));
  });

  test('SPEC §3 profiles: patients, the practitioner with a photo, the admin, all with the demo emails', () => {
    const emails = (resource: Patient | Practitioner): (string | undefined)[] =>
      (resource.telecom ?? []).filter((t) => t.system === 'email').map((t) => t.value);
    const practitioners = ofType<Practitioner>('Practitioner');
    const drChen = practitioners.find((p) => emails(p).includes('dr.chen@bloom.example')) as Practitioner;
    const admin = practitioners.find((p) => emails(p).includes('admin@bloom.example'));
    expect(drChen.name?.[0]).toMatchObject({ given: ['Lily'], family: 'Chen' });
    expect(admin).toBeDefined();
    for (const [patient, email] of [
      [maria, 'maria@bloom.example'],
      [aisha, 'aisha@bloom.example'],
    ] as const) {
      expect(emails(patient)).toEqual([email]);
      expect(patient.gender).toBe('female');
      expect(patient.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(patient.address?.[0]?.city).toBeTruthy();
      expect(patient.generalPractitioner?.map((ref) => resolve(ref))).toEqual([drChen]);
      expect(patient.generalPractitioner?.[0]?.display).toBe('Dr. Lily Chen');
    }
    for (const account of DEMO_ACCOUNTS) {
      const profiles: (Patient | Practitioner)[] =
        account.profileType === 'Patient' ? ofType<Patient>('Patient') : practitioners;
      const profile = profiles.find((p) => emails(p).includes(account.email));
      expect(profile?.name?.[0]).toMatchObject({ given: [account.givenName], family: account.familyName });
    }

    const photo = drChen.photo?.[0];
    expect(photo?.contentType).toBe('image/svg+xml');
    const svg = Buffer.from(photo?.data as string, 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/);
    expect(photo?.size).toBe(Buffer.byteLength(svg));
  });
});

describe('dates relative to the seeding day', () => {
  const SHIFT_DAYS = 14; // two whole weeks: weekdays, and so visits and slots, line up
  const shifted = buildDemoClinic(new Date(TODAY.getTime() + SHIFT_DAYS * DAY_MS)).bundle;
  const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$/;

  /** Pairs of differing leaf values at the same path in two bundles. */
  function differences(
    a: unknown,
    b: unknown,
    path: string,
    out: { path: string; a: unknown; b: unknown }[],
  ): void {
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) {
        differences(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
          `${path}.${key}`,
          out,
        );
      }
    } else if (a !== b) {
      out.push({ path, a, b });
    }
  }

  test('building for a later day shifts every date and dateTime by exactly that many days', () => {
    const diffs: { path: string; a: unknown; b: unknown }[] = [];
    differences(bundle, shifted, 'Bundle', diffs);
    // Birth dates keep the age instead (tested below).
    const dateDiffs = diffs.filter(
      (d) => typeof d.a === 'string' && DATE_TIME.test(d.a) && !d.path.endsWith('.birthDate'),
    );
    expect(dateDiffs.length).toBeGreaterThan(750);
    for (const diff of dateDiffs) {
      const moved = (Date.parse(diff.b as string) - Date.parse(diff.a as string)) / DAY_MS;
      expect({ path: diff.path, moved }).toEqual({ path: diff.path, moved: SHIFT_DAYS });
    }
    // What else differs carries a date inside: birth dates, the PDF rendering and the message
    // naming the Tdap visit's day. Nothing else may change.
    const others = diffs
      .filter((d) => !dateDiffs.includes(d))
      .map((d) => d.path.replace(/\[\d+\]|\.\d+/g, '[]'));
    expect(new Set(others)).toEqual(
      new Set([
        'Bundle.entry[].resource.birthDate',
        'Bundle.entry[].resource.presentedForm[].data',
        'Bundle.entry[].resource.payload[].contentString',
      ]),
    );
  });

  test('no date is fixed: every dateTime lies within 365 days before to 46 days after the seeding day (due dates up to 280)', () => {
    for (const today of [TODAY, new Date('2031-07-04T23:59:59Z')]) {
      const { bundle: built } = buildDemoClinic(today);
      const dayZero = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
      // A due date (LOINC 11778-8) lies up to 280 days ahead by nature: checked on its own below.
      const isDueDate = (value: unknown): boolean =>
        typeof value === 'object' &&
        value !== null &&
        (value as Observation).resourceType === 'Observation' &&
        (value as Observation).code?.coding?.[0]?.code === '11778-8';
      const json = JSON.stringify(built, (key, value: unknown) =>
        key === 'birthDate' || key === 'data' || isDueDate(value) ? undefined : value,
      );
      const stamps = json.match(/"\d{4}-\d{2}-\d{2}(T[^"]*)?"/g) ?? [];
      expect(stamps.length).toBeGreaterThan(750);
      for (const stamp of stamps) {
        const days = (Date.parse(stamp.slice(1, -1)) - dayZero) / DAY_MS;
        expect(days).toBeGreaterThanOrEqual(-365);
        expect(days).toBeLessThanOrEqual(46);
      }
    }
  });

  test('birth dates keep the patients the same age on any seeding day', () => {
    const age = (birthDate: string, on: Date): number => {
      const [y, m, d] = birthDate.split('-').map(Number);
      const hadBirthday = on.getUTCMonth() + 1 > m || (on.getUTCMonth() + 1 === m && on.getUTCDate() >= d);
      return on.getUTCFullYear() - y - (hadBirthday ? 0 : 1);
    };
    for (const today of [
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-03-14T00:00:00Z'),
      new Date('2029-12-31T00:00:00Z'),
    ]) {
      const patients =
        buildDemoClinic(today)
          .bundle.entry?.map((e) => e.resource)
          .filter((r): r is Patient => r?.resourceType === 'Patient') ?? [];
      expect(patients.map((p) => age(p.birthDate as string, today))).toEqual([31, 27]);
    }
  });

  test('an invalid seeding day is refused', () => {
    expect(() => buildDemoClinic(new Date('not a date'))).toThrow('DemoCalendar needs a valid date');
  });
});

describe('SPEC §3 "Vital types": 20 weeks of vitals coded exactly', () => {
  const vitals = ofType<Observation>('Observation').filter(
    (o) => o.category?.[0]?.coding?.[0]?.code === 'vital-signs',
  );
  const mariaVitals = vitals.filter((o) => isFor(maria)(o.subject));
  const code = (o: Observation): string | undefined => o.code.coding?.[0]?.code;

  test('every vital is LOINC-coded with category vital-signs and a UCUM quantity in the SPEC unit', () => {
    expect(vitals.length).toBeGreaterThan(0);
    for (const o of vitals) {
      expect(o.category?.[0]?.coding?.[0]?.system).toBe(
        'http://terminology.hl7.org/CodeSystem/observation-category',
      );
      expect(o.code.coding?.[0]?.system).toBe('http://loinc.org');
      expect(o.effectiveDateTime).toBeDefined();
      switch (code(o)) {
        case '85354-9':
          expect(o.valueQuantity).toBeUndefined();
          expect(
            o.component?.map((c) => [c.code.coding?.[0]?.system, c.code.coding?.[0]?.code, c.valueQuantity]),
          ).toEqual([
            [
              'http://loinc.org',
              '8480-6',
              {
                value: expect.any(Number),
                unit: 'mm[Hg]',
                system: 'http://unitsofmeasure.org',
                code: 'mm[Hg]',
              },
            ],
            [
              'http://loinc.org',
              '8462-4',
              {
                value: expect.any(Number),
                unit: 'mm[Hg]',
                system: 'http://unitsofmeasure.org',
                code: 'mm[Hg]',
              },
            ],
          ]);
          break;
        case '8867-4':
          expect(o.valueQuantity).toEqual({
            value: expect.any(Number),
            unit: 'beats/minute',
            system: 'http://unitsofmeasure.org',
            code: '/min',
          });
          break;
        case '29463-7':
          expect(o.valueQuantity).toEqual({
            value: expect.any(Number),
            unit: 'lbs',
            system: 'http://unitsofmeasure.org',
            code: '[lb_av]',
          });
          break;
        default:
          throw new Error(`Unexpected vital code ${code(o)}`);
      }
    }
  });

  test('Maria has one reading of each type a week for 20 weeks, all in the past', () => {
    for (const vital of ['85354-9', '8867-4', '29463-7']) {
      const times = mariaVitals
        .filter((o) => code(o) === vital)
        .map((o) => Date.parse(o.effectiveDateTime as string));
      expect(times).toHaveLength(MARIA_VITAL_WEEKS);
      const spanWeeks = (Math.max(...times) - Math.min(...times)) / (7 * DAY_MS);
      expect(spanWeeks).toBe(MARIA_VITAL_WEEKS - 1);
      expect(Math.max(...times)).toBeLessThan(DAY_ZERO);
    }
  });

  test('values are plausible for a pregnancy: weight gains, blood pressure and pulse in normal ranges', () => {
    const series = (vital: string): Observation[] =>
      mariaVitals
        .filter((o) => code(o) === vital)
        .sort(
          (a, b) => Date.parse(a.effectiveDateTime as string) - Date.parse(b.effectiveDateTime as string),
        );
    const weights = series('29463-7').map((o) => o.valueQuantity?.value as number);
    expect(weights[weights.length - 1] - weights[0]).toBeGreaterThan(12);
    expect(weights[weights.length - 1] - weights[0]).toBeLessThan(30);
    for (const bp of series('85354-9')) {
      const [systolic, diastolic] = (bp.component ?? []).map((c) => c.valueQuantity?.value as number);
      expect(systolic).toBeGreaterThanOrEqual(95);
      expect(systolic).toBeLessThan(140);
      expect(diastolic).toBeGreaterThanOrEqual(55);
      expect(diastolic).toBeLessThan(90);
    }
    for (const hr of series('8867-4')) {
      expect(hr.valueQuantity?.value).toBeGreaterThanOrEqual(60);
      expect(hr.valueQuantity?.value).toBeLessThanOrEqual(110);
    }
  });
});

describe('SPEC §2 diagnostic report view: lab results', () => {
  const reports = ofType<DiagnosticReport>('DiagnosticReport');
  const mariaReports = reports.filter((r) => isFor(maria)(r.subject));

  test('Maria has the six kinds of prenatal report of issue #2', () => {
    const names = mariaReports.map((r) => r.code.text);
    expect(mariaReports.length).toBeGreaterThanOrEqual(6);
    for (const expected of [
      'Complete blood count',
      'Glucose challenge test',
      'Urinalysis',
      'Blood type and antibody screen',
      'Rubella immunity',
      'Group B strep culture',
    ]) {
      expect(names).toContain(expected);
    }
  });

  test('every result carries value, reference range, interpretation, category laboratory, performer and specimen', () => {
    const results = reports.flatMap((r) => (r.result ?? []).map((ref) => resolve<Observation>(ref)));
    expect(results.length).toBeGreaterThanOrEqual(20);
    for (const o of results) {
      expect(o.valueQuantity ?? o.valueCodeableConcept).toBeDefined();
      expect(o.referenceRange?.[0]?.text).toBeTruthy();
      expect(o.interpretation?.[0]?.coding?.[0]?.system).toBe(
        'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
      );
      expect(o.category?.[0]?.coding?.[0]?.code).toBe('laboratory');
      expect(resolve(o.performer?.[0]).resourceType).toBe('Organization');
      expect(resolve(o.specimen).resourceType).toBe('Specimen');
      expect(o.subject).toEqual(reports.find((r) => r.result?.some((ref) => resolve(ref) === o))?.subject);
    }
    expect(results.filter((o) => o.note?.[0]?.text).length).toBeGreaterThanOrEqual(5);
  });

  test("SPEC §9 critical interpretation codes AA, LL, HH and A all occur in Maria's results", () => {
    const codes = mariaReports.flatMap((r) =>
      (r.result ?? []).map((ref) => resolve<Observation>(ref).interpretation?.[0]?.coding?.[0]?.code),
    );
    for (const critical of ['AA', 'LL', 'HH', 'A']) {
      expect(codes).toContain(critical);
    }
    expect(codes).toContain('N');
  });

  test("numeric reference ranges use the value's unit and the flags agree with them", () => {
    for (const report of reports) {
      for (const o of (report.result ?? []).map((ref) => resolve<Observation>(ref))) {
        const value = o.valueQuantity?.value;
        const range = o.referenceRange?.[0];
        const flag = o.interpretation?.[0]?.coding?.[0]?.code as string;
        if (value === undefined) continue;
        for (const bound of [range?.low, range?.high]) {
          if (bound) expect(bound.code).toBe(o.valueQuantity?.code);
        }
        const low = range?.low?.value ?? -Infinity;
        const high = range?.high?.value ?? Infinity;
        const expected = value < low ? ['L', 'LL'] : value > high ? ['H', 'HH'] : ['N'];
        expect({ test: o.code.text, flag: expected.includes(flag) }).toEqual({
          test: o.code.text,
          flag: true,
        });
      }
    }
  });

  test('SPEC §3 Specimen: every report has specimens collected, then received, with notes', () => {
    for (const report of reports) {
      expect(report.specimen?.length).toBeGreaterThan(0);
      for (const specimen of (report.specimen ?? []).map((ref) => resolve<Specimen>(ref))) {
        const collected = Date.parse(specimen.collection?.collectedDateTime as string);
        const received = Date.parse(specimen.receivedTime as string);
        expect(received).toBeGreaterThan(collected);
        expect(Date.parse(report.issued as string)).toBeGreaterThanOrEqual(received);
        expect(Date.parse(report.issued as string)).toBeLessThan(DAY_ZERO);
        expect(specimen.note?.[0]?.text).toBeTruthy();
        expect(resolve(specimen.subject)).toBe(resolve(report.subject));
      }
      expect(resolve(report.performer?.[0]).resourceType).toBe('Organization');
      expect(resolve(report.resultsInterpreter?.[0]).resourceType).toBe('Practitioner');
    }
  });

  test('one report carries a real PDF in presentedForm', () => {
    const withPdf = reports.filter((r) => r.presentedForm?.length);
    expect(withPdf).toHaveLength(1);
    const form = withPdf[0].presentedForm?.[0];
    expect(form?.contentType).toBe('application/pdf');
    const pdf = Buffer.from(form?.data as string, 'base64').toString('latin1');
    expect(form?.size).toBe(pdf.length);
    expect(checkPdf(pdf)).toEqual([]);
    expect(pdf).toContain('(Hemoglobin: 9.8 g/dL');
    expect(pdf).toContain('(Patient: Maria Garcia)');
  });

  test('the PDF check catches a corrupted file', () => {
    const form = reports.find((r) => r.presentedForm?.length)?.presentedForm?.[0];
    const pdf = Buffer.from(form?.data as string, 'base64').toString('latin1');
    expect(checkPdf(pdf.replace('2 0 obj', '2 0 obk'))).toEqual(['object 2 not at 58']);
    expect(checkPdf(pdf.replace('Patient:', 'Patient'))).toEqual([
      expect.stringMatching(/^startxref \d+ does not point at xref$/),
    ]);
    expect(checkPdf(pdf.replace('%PDF-1.4', '%PFD-1.4'))).toContain('no %PDF header');
  });
});

describe('medications, immunizations, appointments, slots and messages', () => {
  test('SPEC §3 MedicationRequest: prenatal vitamins and iron for Maria, each with text, requester and patient', () => {
    const requests = ofType<MedicationRequest>('MedicationRequest');
    const mariaMeds = requests.filter((r) => isFor(maria)(r.subject));
    expect(mariaMeds.map((r) => r.medicationCodeableConcept?.text).join('\n')).toMatch(
      /Prenatal multivitamin[\s\S]*Ferrous sulfate/,
    );
    for (const request of requests) {
      expect(request.medicationCodeableConcept?.text).toBeTruthy();
      expect(request.requester?.display).toBe('Dr. Lily Chen');
      expect(resolve(request.subject).resourceType).toBe('Patient');
    }
    expect(requests.some((r) => isFor(aisha)(r.subject))).toBe(true);
  });

  test('SPEC §4 vaccines: flu given in the past, Tdap upcoming, with text, location and patient', () => {
    const shots = ofType<Immunization>('Immunization').filter((i) => isFor(maria)(i.patient));
    const past = shots.filter((i) => Date.parse(i.occurrenceDateTime as string) <= DAY_ZERO);
    const upcoming = shots.filter((i) => Date.parse(i.occurrenceDateTime as string) > TODAY.getTime());
    expect(past.map((i) => [i.vaccineCode.text?.split(' ')[0], i.status])).toEqual([
      ['Influenza', 'completed'],
    ]);
    expect(upcoming.map((i) => [i.vaccineCode.text?.split(' ')[0], i.status])).toEqual([
      ['Tdap', 'not-done'],
    ]);
    for (const shot of shots) {
      expect(shot.location?.display).toBeTruthy();
      expect(resolve(shot.location).resourceType).toBe('Location');
    }
  });

  test('SPEC §4 appointments: past ones fulfilled, upcoming ones booked into a busy slot', () => {
    const appointments = ofType<Appointment>('Appointment');
    const forMaria = appointments.filter((a) => a.participant.some((p) => isFor(maria)(p.actor)));
    const upcoming = forMaria.filter((a) => Date.parse(a.start as string) >= TODAY.getTime());
    const past = forMaria.filter((a) => Date.parse(a.start as string) < TODAY.getTime());
    expect(upcoming.length).toBeGreaterThanOrEqual(1);
    expect(past.length).toBeGreaterThanOrEqual(1);
    expect(past.every((a) => a.status === 'fulfilled')).toBe(true);
    for (const appointment of appointments) {
      expect(appointment.participant.every((p) => p.actor?.display)).toBe(true);
      expect(Date.parse(appointment.end as string) - Date.parse(appointment.start as string)).toBe(
        60 * 60 * 1000,
      );
      if (Date.parse(appointment.start as string) >= TODAY.getTime()) {
        expect(appointment.status).toBe('booked');
        const slot = resolve<Slot>(appointment.slot?.[0]);
        expect([slot.status, slot.start]).toEqual(['busy', appointment.start]);
      }
    }
  });

  test('SPEC §9 slots: one hour each, 09:00-17:00 UTC on every weekday of the coming 45 days, mostly free', () => {
    const slots = ofType<Slot>('Slot');
    const expected: string[] = [];
    for (let day = 1; day <= 45; day++) {
      const date = new Date(DAY_ZERO + day * DAY_MS);
      if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
      for (let hour = 9; hour < 17; hour++) {
        expected.push(new Date(date.getTime() + hour * 60 * 60 * 1000).toISOString().replace('.000Z', 'Z'));
      }
    }
    expect(slots.map((s) => s.start).sort()).toEqual(expected);
    for (const slot of slots) {
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(60 * 60 * 1000);
    }
    const busy = slots.filter((s) => s.status === 'busy').length;
    expect(busy).toBeGreaterThanOrEqual(3);
    expect(busy).toBeLessThan(slots.length / 5);
    expect(slots.filter((s) => s.status === 'free').length).toBe(slots.length - busy);
  });

  test('SPEC §3 Communication: a believable thread between Maria and Dr. Chen, in order, all sent', () => {
    const thread = ofType<Communication>('Communication').filter(
      (c) => isFor(maria)(c.subject) && c.partOf !== undefined,
    );
    expect(thread.length).toBeGreaterThanOrEqual(6);
    const senders = new Set(thread.map((c) => c.sender?.display));
    expect(senders).toEqual(new Set(['Maria Garcia', 'Dr. Lily Chen']));
    const sent = thread.map((c) => Date.parse(c.sent as string));
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    expect(Math.max(...sent)).toBeLessThan(DAY_ZERO);
    for (const message of thread) {
      expect(message.status).toBe('completed');
      expect(message.recipient?.[0]?.display).toBe(
        message.sender?.display === 'Maria Garcia' ? 'Dr. Lily Chen' : 'Maria Garcia',
      );
      expect(message.payload?.[0]?.contentString?.length).toBeGreaterThan(20);
    }
  });

  test("issue #20: each patient's messages are partOf her thread header, shaped as Medplum's ThreadChat reads it", () => {
    const communications = ofType<Communication>('Communication');
    for (const patient of [maria, aisha]) {
      const headers = communications.filter((c) => isFor(patient)(c.subject) && c.partOf === undefined);
      expect(headers).toHaveLength(1);
      const header = headers[0];
      const headerUrl = fullUrlOf(header);
      expect(header).toMatchObject({ status: 'in-progress', topic: { text: 'Questions for Dr. Chen' } });
      expect(header.payload).toBeUndefined();
      expect(header.recipient?.map((r) => r.display)).toEqual([
        patient === maria ? 'Maria Garcia' : 'Aisha Khan',
        'Dr. Lily Chen',
      ]);
      const messages = communications.filter((c) => c.partOf !== undefined && isFor(patient)(c.subject));
      expect(messages.length).toBeGreaterThanOrEqual(2);
      for (const message of messages) {
        expect(message.partOf).toEqual([{ reference: headerUrl }]);
      }
      // The header's `sent` is its last message's, as ThreadChat's PATCH after each message leaves it.
      expect(header.sent).toBe(messages[messages.length - 1].sent);
      expect(header.sender).toEqual(messages[0].sender);
    }
  });

  test('Aisha has a smaller record of her own: vitals, a report, a message', () => {
    const aishaResources = resources.filter((r) => {
      const refs: { path: string; reference: string }[] = [];
      collectReferences(r, '', refs);
      return refs.some((ref) => ref.reference === fullUrlOf(aisha));
    });
    const types = aishaResources.map((r) => r.resourceType);
    expect(types.filter((t) => t === 'Observation').length).toBeGreaterThanOrEqual(2);
    expect(types).toEqual(
      expect.arrayContaining(['DiagnosticReport', 'Communication', 'Specimen', 'Appointment']),
    );
    // None of Aisha's resources mention Maria, so access-control tests can tell them apart.
    expect(aishaResources.filter((r) => JSON.stringify(r).includes(fullUrlOf(maria)))).toEqual([]);
  });
});

describe('issue #7 Home "where the pregnancy stands": the estimated date of delivery (LOINC 11778-8)', () => {
  const dueDates = ofType<Observation>('Observation').filter((o) => o.code.coding?.[0]?.code === '11778-8');

  test("every pregnant patient's, as a date 280 days after her last period: Home reads 35w 4d for Maria, 22w 2d for Aisha", () => {
    const mariaDue = dueDates.filter((o) => isFor(maria)(o.subject));
    const aishaDue = dueDates.filter((o) => isFor(aisha)(o.subject));
    expect(mariaDue).toHaveLength(1);
    expect(aishaDue).toHaveLength(1);
    expect(pregnancyProgress(aishaDue[0].valueDateTime as string, TODAY)).toEqual({
      weeks: 22,
      days: 2,
      trimester: 2,
    });
    expect(mariaDue[0].valueDateTime).toBe(
      new Date(DAY_ZERO + (280 - (35 * 7 + 4)) * DAY_MS).toISOString().slice(0, 10),
    );
    expect(pregnancyProgress(mariaDue[0].valueDateTime as string, TODAY)).toEqual({
      weeks: 35,
      days: 4,
      trimester: 3,
    });
    for (const o of dueDates) {
      expect(o.code.coding?.[0]?.system).toBe('http://loinc.org');
      expect(o.status).toBe('final');
      // Recorded in the past, neither a vital sign nor a lab result (it must not show in those lists).
      expect(Date.parse(o.effectiveDateTime as string)).toBeLessThan(DAY_ZERO);
      expect(o.category?.[0]?.coding?.[0]?.code).toBe('exam');
      expect(validateResource(o)).toEqual([]);
    }
  });
});
