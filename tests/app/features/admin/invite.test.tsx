// admin/invite (SPEC §6 project administration, §7 invite; §5 form checks, §8 errors): a project admin
// finds "Invite a user" in the Admin menu, the form refuses empty names and a bad email before
// sending, sends Medplum's InviteRequest (role, names, email, membership.accessPolicy and admin) to
// POST admin/projects/{id}/invite and links the new membership; the server's refusals show under
// their field or in the red alert. A practitioner without the admin flag and a patient get no menu
// item, and the page tells them only admins invite, without a form.
import type { Practitioner, ProjectMembership } from '@medplum/fhirtypes';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  policyOptions,
  validateInvite,
  EMPTY_INVITE,
} from '../../../../src/app/features/admin/inviteRequest';
import {
  fakeAccessToken,
  installFakeApi,
  maria,
  outcome,
  storeMariaLogin,
  type FakeApi,
} from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';

const INVITE = 'POST admin/projects/clinic/invite';

const admin: Practitioner = {
  resourceType: 'Practitioner',
  id: 'admin-1',
  name: [{ given: ['Ada'], family: 'Admin' }],
};

let api: FakeApi;

function signedInAs(profile: Practitioner, isAdmin: boolean): void {
  const login = {
    accessToken: fakeAccessToken(`Practitioner/${profile.id}`),
    refreshToken: 'refresh-1',
    profile: { reference: `Practitioner/${profile.id}` },
    project: { reference: 'Project/clinic' },
  };
  localStorage.setItem('@bloom/activeLogin', JSON.stringify(login));
  localStorage.setItem('@bloom/logins', JSON.stringify([login]));
  api.always('GET auth/me', 200, {
    profile,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: {
      resourceType: 'ProjectMembership',
      id: 'm-admin',
      profile: { reference: `Practitioner/${profile.id}` },
      ...(isAdmin ? { admin: true } : {}),
    },
  });
}

function policies() {
  api.always('POST fhir/R4/$graphql', 200, {
    data: {
      AccessPolicyList: [
        { id: 'p-admin', name: 'Bloom admin' },
        { id: 'p-staff', name: 'Bloom clinic staff' },
        { id: 'p-patient', name: 'Bloom patient' },
      ],
    },
  });
}

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
}

async function openInvite() {
  renderApp('/admin/invite');
  await screen.findByRole('heading', { level: 1, name: 'Invite a user' });
  return screen.findByRole('form', { name: 'Invite a user' });
}

beforeEach(() => {
  api = installFakeApi();
});

describe('SPEC §6 invite a user (admin)', () => {
  it('is in the Admin menu for a project admin', async () => {
    signedInAs(admin, true);
    api.always('POST fhir/R4/$graphql', 200, { data: { CommunicationList: [] } });
    renderApp('/inbox');
    // jsdom has no media queries: the narrow header's one Menu lists the links and the groups' items.
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    const item = await screen.findByRole('menuitem', { name: 'Invite a user' });
    expect(item).toHaveAttribute('href', '/admin/invite');
  });

  it('checks names and email before sending anything', async () => {
    signedInAs(admin, true);
    policies();
    const form = await openInvite();
    fill(/^Email/, 'not-an-email');
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText('First name is required')).toBeInTheDocument();
    expect(within(form).getByText('Last name is required')).toBeInTheDocument();
    expect(within(form).getByText('Enter a valid email address, like name@example.com')).toBeInTheDocument();
    expect(api.bodiesOf(INVITE)).toEqual([]);
    expect(
      validateInvite({ ...EMPTY_INVITE, firstName: 'x'.repeat(129), lastName: 'A', email: 'a@b.co' }),
    ).toEqual({ firstName: 'First name must be at most 128 characters' });
  });

  it('sends the InviteRequest with the chosen policy and admin flag, then links the new membership', async () => {
    signedInAs(admin, true);
    policies();
    const membership: ProjectMembership = {
      resourceType: 'ProjectMembership',
      id: 'm-new',
      project: { reference: 'Project/clinic' },
      user: { reference: 'User/u-new' },
      profile: { reference: 'Practitioner/p-new' },
    };
    api.once(INVITE, 200, membership);
    const form = await openInvite();
    const policy = await within(form).findByRole('combobox', { name: 'Access policy' });
    await within(policy).findByRole('option', { name: 'Bloom clinic staff' });
    fill(/^First name/, ' Rosa ');
    fill(/^Last name/, 'Lopez');
    fill(/^Email/, 'rosa.lopez@bloom.example');
    fireEvent.change(policy, { target: { value: 'p-staff' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /^Project admin/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));

    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent('Rosa Lopez (rosa.lopez@bloom.example) is invited.');
    expect(within(done).getByRole('link', { name: 'Open the membership' })).toHaveAttribute(
      'href',
      '/ProjectMembership/m-new',
    );
    expect(api.bodiesOf(INVITE)).toEqual([
      {
        resourceType: 'Practitioner',
        firstName: 'Rosa',
        lastName: 'Lopez',
        email: 'rosa.lopez@bloom.example',
        sendEmail: true,
        membership: { accessPolicy: { reference: 'AccessPolicy/p-staff' }, admin: true },
      },
    ]);
    // Ready for the next person.
    expect(within(form).getByRole('textbox', { name: /^First name/ })).toHaveValue('');
  });

  it('invites a patient without a policy (the project default applies) and without an email', async () => {
    signedInAs(admin, true);
    policies();
    api.once(INVITE, 200, { resourceType: 'ProjectMembership', id: 'm-p' });
    const form = await openInvite();
    fireEvent.click(within(form).getByRole('radio', { name: 'Patient' }));
    fill(/^First name/, 'Lena');
    fill(/^Last name/, 'Park');
    fill(/^Email/, 'lena@bloom.example');
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Send the invitation email' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await screen.findByRole('status');
    expect(api.bodiesOf(INVITE)).toEqual([
      {
        resourceType: 'Patient',
        firstName: 'Lena',
        lastName: 'Park',
        email: 'lena@bloom.example',
        sendEmail: false,
        membership: {},
      },
    ]);
  });

  it("shows the server's refusals: a field's under it, the others in the red alert", async () => {
    signedInAs(admin, true);
    policies();
    api.once(INVITE, 400, outcome('Valid email address is required', ['email']));
    api.once(INVITE, 409, outcome('User is already a member of this project'));
    api.once(INVITE, 400, outcome('Access policy not found', ['membership.accessPolicy']));
    api.once(INVITE, 403, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
    });
    const form = await openInvite();
    fill(/^First name/, 'Lily');
    fill(/^Last name/, 'Chen');
    fill(/^Email/, 'dr.chen@bloom.example');
    const send = () => fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));

    send();
    expect(await within(form).findByText('Valid email address is required')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: /^Email/ })).toHaveAccessibleDescription(
      'Valid email address is required',
    );
    send();
    const alert = await within(form).findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('User is already a member of this project'));
    send();
    expect(await within(form).findByText('Access policy not found')).toBeInTheDocument();
    send();
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent('Forbidden'));
    // Nothing was reported invited, and what was typed is kept for another try.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: /^Email/ })).toHaveValue('dr.chen@bloom.example');
    expect(api.bodiesOf(INVITE)).toHaveLength(4);
  });

  it('a practitioner who is not an admin has no menu item and no form', async () => {
    signedInAs({ ...admin, id: 'chen', name: [{ given: ['Lily'], family: 'Chen' }] }, false);
    api.always('POST fhir/R4/$graphql', 200, { data: { CommunicationList: [] } });
    const { router } = renderApp('/inbox');
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    await screen.findByRole('menuitem', { name: 'Inbox' });
    expect(screen.queryByRole('menuitem', { name: 'Invite a user' })).not.toBeInTheDocument();

    await act(() => router.navigate('/admin/invite'));
    expect(
      await screen.findByText('Only a project administrator can invite people to this project.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Invite a user' })).not.toBeInTheDocument();
    expect(api.bodiesOf(INVITE)).toEqual([]);
  });

  it('a patient has no menu item and no form', async () => {
    storeMariaLogin();
    api.always('GET auth/me', 200, {
      profile: maria,
      project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
      membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference: 'Patient/maria-1' } },
    });
    renderApp('/admin/invite');
    expect(
      await screen.findByText('Only a project administrator can invite people to this project.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await screen.findByRole('menuitem', { name: 'Messages' });
    expect(screen.queryByRole('menuitem', { name: 'Invite a user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Invite a user' })).not.toBeInTheDocument();
  });

  it('names each policy choice, an unnamed one by its id', () => {
    expect(
      policyOptions([{ id: 'a', name: 'Staff' }, { id: 'b', name: null }, null, { id: null, name: 'x' }]),
    ).toEqual([
      { id: 'a', label: 'Staff' },
      { id: 'b', label: 'AccessPolicy b' },
    ]);
  });
});
