// account/profile editing and account/provider (SPEC §2 Provider page, §3 Patient profile and
// gender options, §5 per-field server issues, §8 errors): each screen in its loading, data and error
// states with Apollo's MockedProvider answering its one operation; the profile's save goes to the fake
// REST API (GET then PUT of the Patient) and the server's field issues show under their fields.
import type { Patient } from '@medplum/fhirtypes';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { splitOutcomeByField } from '../../../../src/app/api/outcomeFieldErrors';
import { ProfileForm, validateProfileDraft } from '../../../../src/app/features/account/ProfileForm';
import {
  draftFromPatient,
  GENDER_OPTIONS,
  patientWithDraft,
  PROFILE_SERVER_FIELDS,
} from '../../../../src/app/features/account/profileDraft';
import { PLACEHOLDER_PROVIDER, ProviderPage } from '../../../../src/app/features/account/ProviderPage';
import { AccountProfileDocument, AccountProviderDocument } from '../../../../src/graphql';
import { outcome } from '../../support/fakeApi';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const stored: Patient = {
  resourceType: 'Patient',
  id: 'maria-1',
  meta: { versionId: '3' },
  name: [{ use: 'official', given: ['Maria'], family: 'Garcia' }],
  gender: 'female',
  birthDate: '1995-03-14',
  telecom: [
    { system: 'email', value: 'maria@bloom.example', use: 'home' },
    { system: 'phone', value: '+1-217-555-0187', use: 'mobile' },
  ],
  address: [
    {
      use: 'home',
      line: ['1450 Maple Street', 'Apt 3B'],
      city: 'Springfield',
      state: 'IL',
      postalCode: '62704',
      country: 'US',
    },
  ],
  generalPractitioner: [{ reference: 'Practitioner/chen' }],
  managingOrganization: { reference: 'Organization/clinic' },
};

function queried(patient: Patient) {
  return {
    __typename: 'Patient',
    resourceType: 'Patient',
    id: patient.id ?? null,
    name: (patient.name ?? []).map((n) => ({
      use: n.use ?? null,
      text: n.text ?? null,
      given: n.given ?? null,
      family: n.family ?? null,
    })),
    gender: patient.gender ?? null,
    birthDate: patient.birthDate ?? null,
    telecom: (patient.telecom ?? []).map((t) => ({
      system: t.system ?? null,
      value: t.value ?? null,
      use: t.use ?? null,
    })),
    address: (patient.address ?? []).map((a) => ({
      use: a.use ?? null,
      line: a.line ?? null,
      city: a.city ?? null,
      state: a.state ?? null,
      postalCode: a.postalCode ?? null,
      country: a.country ?? null,
    })),
  };
}

function profileMock(patient: Patient = stored, extra: Partial<ScreenMock> = {}): ScreenMock {
  return {
    request: { query: AccountProfileDocument, variables: { id: 'maria-1' } },
    result: { data: { Patient: queried(patient) } },
    ...extra,
  };
}

function renderProfile(mocks: ScreenMock[]) {
  return renderScreen(<ProfileForm patientId="maria-1" />, mocks);
}

function input(label: RegExp): HTMLInputElement {
  return screen.getByRole('textbox', { name: label }) as HTMLInputElement;
}

describe('SPEC §3 profile draft', () => {
  it('reads name, gender, birth date, email and address from the queried Patient', () => {
    expect(draftFromPatient(queried(stored))).toEqual({
      given: 'Maria',
      family: 'Garcia',
      gender: 'female',
      birthDate: '1995-03-14',
      email: 'maria@bloom.example',
      line1: '1450 Maple Street',
      line2: 'Apt 3B',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62704',
      country: 'US',
    });
    expect(
      draftFromPatient(queried({ resourceType: 'Patient', id: 'x', gender: 'bogus' as 'other' })).gender,
    ).toBe('');
  });

  it('offers exactly the SPEC §3 gender options: empty, female, male, other, unknown', () => {
    expect(GENDER_OPTIONS.map((o) => o.value)).toEqual(['', 'female', 'male', 'other', 'unknown']);
  });

  it('writes the edits onto the stored Patient and keeps everything else', () => {
    const draft = {
      ...draftFromPatient(queried(stored)),
      given: 'Maria Elena',
      gender: 'other' as const,
      email: 'm@x.org',
      line2: '',
    };
    const next = patientWithDraft(stored, draft);
    expect(next.name).toEqual([{ use: 'official', given: ['Maria', 'Elena'], family: 'Garcia' }]);
    expect(next.gender).toBe('other');
    expect(next.telecom).toEqual([
      { system: 'email', value: 'm@x.org', use: 'home' },
      { system: 'phone', value: '+1-217-555-0187', use: 'mobile' },
    ]);
    expect(next.address?.[0].line).toEqual(['1450 Maple Street']);
    expect(next.generalPractitioner).toEqual(stored.generalPractitioner);
    expect(next.managingOrganization).toEqual(stored.managingOrganization);
    expect(next.meta).toEqual(stored.meta);
  });

  it('drops emptied elements instead of sending empty strings', () => {
    const empty = {
      given: ' ',
      family: '',
      gender: '' as const,
      birthDate: '',
      email: '',
      line1: '',
      line2: '',
      city: '',
      state: '',
      postalCode: '',
      country: '',
    };
    const next = patientWithDraft(stored, empty);
    expect(next.gender).toBeUndefined();
    expect(next.birthDate).toBeUndefined();
    expect(next.name).toBeUndefined();
    expect(next.telecom).toEqual([{ system: 'phone', value: '+1-217-555-0187', use: 'mobile' }]);
    expect(next.address).toBeUndefined();
  });

  it('adds an email and an address to a Patient that had none', () => {
    const bare: Patient = { resourceType: 'Patient', id: 'p' };
    const draft = { ...draftFromPatient(queried(bare)), email: 'new@x.org', city: 'Paris' };
    expect(patientWithDraft(bare, draft)).toEqual({
      resourceType: 'Patient',
      id: 'p',
      telecom: [{ system: 'email', use: 'home', value: 'new@x.org' }],
      address: [{ use: 'home', city: 'Paris' }],
    });
  });

  it('SPEC §5 checks the email locally only when one is given', () => {
    const draft = draftFromPatient(queried(stored));
    expect(validateProfileDraft(draft)).toEqual({});
    expect(validateProfileDraft({ ...draft, email: '' })).toEqual({});
    expect(validateProfileDraft({ ...draft, email: 'maria' })['Patient.telecom']).toMatch(/valid email/);
  });

  it('SPEC §8 a server issue on a nested path lands on its form field; others go to the message', () => {
    const split = splitOutcomeByField(
      {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'invalid',
            details: { text: 'Invalid date' },
            expression: ['Patient.birthDate'],
          },
          {
            severity: 'error',
            code: 'invalid',
            details: { text: 'Bad city' },
            expression: ['Patient.address[0].city'],
          },
          {
            severity: 'error',
            code: 'invalid',
            details: { text: 'Odd' },
            expression: ['Patient.birthDateX'],
          },
        ],
      },
      PROFILE_SERVER_FIELDS,
    );
    expect(split.fieldErrors).toEqual({ 'Patient.birthDate': 'Invalid date', 'Patient.address': 'Bad city' });
    expect(split.message).toBe('Odd');
  });
});

describe('SPEC §2 account/profile: the editable details', () => {
  it('loading: a labelled spinner before the answer', async () => {
    renderProfile([profileMock(stored, { delay: 200 })]);
    expect(await screen.findByRole('progressbar', { name: 'Loading your profile' })).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: 'Your details' })).toBeInTheDocument();
  });

  it('data: shows name, gender, birth date, email and address in labelled fields', async () => {
    renderProfile([profileMock()]);
    await screen.findByRole('form', { name: 'Your details' });
    expect(input(/^First name/)).toHaveValue('Maria');
    expect(input(/^Last name/)).toHaveValue('Garcia');
    expect(screen.getByRole('combobox', { name: /^Gender/ })).toHaveDisplayValue('Female');
    expect(input(/^Birth date/)).toHaveValue('1995-03-14');
    expect(input(/^Email/)).toHaveValue('maria@bloom.example');
    expect(input(/^Street address/)).toHaveValue('1450 Maple Street');
    expect(input(/^Apartment/)).toHaveValue('Apt 3B');
    expect(input(/^City/)).toHaveValue('Springfield');
    expect(input(/^Postal code/)).toHaveValue('62704');
  });

  it('error: shows the server message with Try again', async () => {
    renderProfile([profileMock(stored, { result: undefined, error: new Error('Forbidden') })]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('saves: reads the stored Patient, PUTs it with the edits, re-reads and says so', async () => {
    const edited: Patient = { ...stored, birthDate: '1995-03-15', gender: 'unknown' };
    const { api } = renderProfile([profileMock(), profileMock(edited)]);
    api.once('GET fhir/R4/Patient/maria-1', 200, stored);
    api.once('PUT fhir/R4/Patient/maria-1', 200, { ...edited, meta: { versionId: '4' } });
    await screen.findByRole('form', { name: 'Your details' });
    fireEvent.change(input(/^Birth date/), { target: { value: '1995-03-15' } });
    const gender = screen.getByRole('combobox', { name: /^Gender/ });
    expect(within(gender).getByRole('option', { name: 'Unknown' })).toHaveValue('unknown');
    fireEvent.change(gender, { target: { value: 'unknown' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your profile is saved.');
    const [sent] = api.bodiesOf('PUT fhir/R4/Patient/maria-1') as Patient[];
    expect(sent).toEqual({ ...stored, birthDate: '1995-03-15', gender: 'unknown' });
    expect(input(/^Birth date/)).toHaveValue('1995-03-15');
  });

  it('SPEC §5 a server issue shows under its field and the rest in the red alert; nothing claims success', async () => {
    const { api } = renderProfile([profileMock()]);
    api.once('GET fhir/R4/Patient/maria-1', 200, stored);
    api.once('PUT fhir/R4/Patient/maria-1', 400, {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Invalid date "1995-02-30"' },
          expression: ['Patient.birthDate'],
        },
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Too many names' },
          expression: ['Patient.name[1]'],
        },
        { severity: 'error', code: 'exception', details: { text: 'Store busy' } },
      ],
    });
    await screen.findByRole('form', { name: 'Your details' });
    fireEvent.change(input(/^Birth date/), { target: { value: '1995-02-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(input(/^Birth date/)).toHaveAccessibleDescription('Invalid date "1995-02-30"'),
    );
    expect(input(/^Birth date/)).toHaveAttribute('aria-invalid', 'true');
    expect(input(/^First name/)).toHaveAccessibleDescription('Too many names');
    expect(screen.getByRole('alert')).toHaveTextContent('Store busy');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('SPEC §5 an invalid email is refused under its field before anything is sent', async () => {
    const { api } = renderProfile([profileMock()]);
    await screen.findByRole('form', { name: 'Your details' });
    fireEvent.change(input(/^Email/), { target: { value: 'maria@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(input(/^Email/)).toHaveAccessibleDescription(/valid email address/);
    expect(api.sent.filter((r) => r.path.startsWith('fhir/R4/Patient'))).toEqual([]);
  });

  it('a failed read before the save shows its message and sends no PUT', async () => {
    const { api } = renderProfile([profileMock()]);
    api.once('GET fhir/R4/Patient/maria-1', 404, outcome('Not found'));
    await screen.findByRole('form', { name: 'Your details' });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
    expect(api.bodiesOf('PUT fhir/R4/Patient/maria-1')).toEqual([]);
  });
});

function practitioner() {
  return {
    __typename: 'Practitioner',
    resourceType: 'Practitioner',
    id: 'chen',
    name: [{ text: null, prefix: ['Dr.'], given: ['Lily'], family: 'Chen', suffix: ['MD'] }],
    photo: [{ contentType: 'image/svg+xml', url: null, data: 'PHN2Zy8+', title: 'Portrait' }],
    telecom: [
      { system: 'email', value: 'dr.chen@bloom.example' },
      { system: 'phone', value: '+1-217-555-0142' },
    ],
    qualification: [{ code: { text: 'General practitioner, prenatal care' } }],
  };
}

function clinic() {
  return {
    __typename: 'Organization',
    resourceType: 'Organization',
    id: 'clinic',
    name: 'Bloom Clinic',
    telecom: [{ system: 'phone', value: '+1-217-555-0199' }],
    address: [{ line: ['200 Blossom Avenue'], city: 'Springfield', state: 'IL', postalCode: '62701' }],
  };
}

function providerMock(generalPractitioner: unknown[], extra: Partial<ScreenMock> = {}): ScreenMock {
  return {
    request: { query: AccountProviderDocument, variables: { id: 'maria-1' } },
    result: {
      data: {
        Patient: {
          __typename: 'Patient',
          resourceType: 'Patient',
          id: 'maria-1',
          generalPractitioner,
          managingOrganization: { reference: 'Organization/clinic', display: null, resource: clinic() },
        },
      },
    },
    ...extra,
  };
}

describe('SPEC §2 account/provider', () => {
  it('GP set: the practitioner with photo, qualification and phone, and the clinic', async () => {
    renderScreen(<ProviderPage />, [
      providerMock([{ reference: 'Practitioner/chen', display: null, resource: practitioner() }]),
    ]);
    const card = await screen.findByRole('region', { name: 'Dr. Lily Chen MD' });
    expect(within(card).getByRole('img', { name: 'Photo of Dr. Lily Chen MD' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;base64,PHN2Zy8+',
    );
    expect(card).toHaveTextContent('General practitioner, prenatal care');
    expect(within(card).getByRole('link', { name: '+1-217-555-0142' })).toHaveAttribute(
      'href',
      'tel:+12175550142',
    );
    expect(card).toHaveTextContent('Bloom Clinic');
    expect(card).toHaveTextContent('200 Blossom Avenue, Springfield, IL 62701');
    expect(within(card).getByRole('link', { name: '+1-217-555-0199' })).toBeInTheDocument();
    expect(card).not.toHaveTextContent(PLACEHOLDER_PROVIDER.doctor);
    expect(document.title).toBe('Provider · Bloom');
  });

  it('GP only as a display text: that name, no photo', async () => {
    renderScreen(<ProviderPage />, [
      providerMock([{ reference: null, display: 'Dr. Ana Ruiz', resource: null }]),
    ]);
    const card = await screen.findByRole('region', { name: 'Dr. Ana Ruiz' });
    expect(within(card).queryByRole('img')).not.toBeInTheDocument();
  });

  it('no GP: the fixed placeholder doctor, phone and clinic', async () => {
    renderScreen(<ProviderPage />, [providerMock([])]);
    const card = await screen.findByRole('region', { name: PLACEHOLDER_PROVIDER.doctor });
    expect(within(card).getByRole('link', { name: PLACEHOLDER_PROVIDER.phone })).toBeInTheDocument();
    expect(card).toHaveTextContent(PLACEHOLDER_PROVIDER.clinic);
    expect(card).toHaveTextContent(/No general practitioner is on your record/);
  });

  it('loading and error states', async () => {
    renderScreen(<ProviderPage />, [providerMock([], { delay: 200 })]);
    expect(await screen.findByRole('progressbar', { name: 'Loading your provider' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: PLACEHOLDER_PROVIDER.doctor })).toBeInTheDocument();
  });

  it('error: the message with Try again', async () => {
    renderScreen(<ProviderPage />, [providerMock([], { result: undefined, error: new Error('Forbidden') })]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
