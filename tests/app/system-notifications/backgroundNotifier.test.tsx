// System notifications while the app is open in the background: the notifier raises one for a
// care-team message and for a change to her appointments while the page is hidden and the permission
// is granted, none while she looks at the page, for her own message or without the permission; a
// click brings her to the thread or the appointment. The opt-in on the Messages screen asks the
// browser's permission only when she turns it on, and remembers her choice. Apollo's
// MockSubscriptionLink plays the two subscriptions; jsdom has no service worker, so notifications
// go through the page's Notification (a fake here).
import { ApolloLink } from '@apollo/client/link';
import { MockSubscriptionLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { createResourceCache } from '../../../src/graphql';
import BackgroundNotifier from '../../../src/app/system-notifications/BackgroundNotifier';
import {
  NOTIFICATION_CHOICE_STORAGE_KEY,
  notificationChosen,
} from '../../../src/app/system-notifications/notificationChoice';
import {
  NOTIFY_ME_HELP,
  NOTIFY_ME_LABEL,
  NotifyMeControl,
} from '../../../src/app/features/messages/NotifyMeControl';
import { recordingLink } from '../support/sentDocuments';

const MARIA = 'Patient/maria-1';

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static answer: NotificationPermission = 'granted';
  static requestPermission = jest.fn(async () => {
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.answer;
  });
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions = {},
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

let visibility: DocumentVisibilityState = 'hidden';
const realNotification = Object.getOwnPropertyDescriptor(window, 'Notification');

beforeAll(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  // jsdom has no window focus; the click's focusing is the browser's part.
  jest.spyOn(window, 'focus').mockImplementation(() => undefined);
});

beforeEach(() => {
  visibility = 'hidden';
  FakeNotification.permission = 'granted';
  FakeNotification.answer = 'granted';
  FakeNotification.requestPermission.mockClear();
  FakeNotification.shown = [];
  Object.defineProperty(window, 'Notification', {
    configurable: true,
    writable: true,
    value: FakeNotification,
  });
  window.localStorage.removeItem(NOTIFICATION_CHOICE_STORAGE_KEY);
});

afterAll(() => {
  if (realNotification) Object.defineProperty(window, 'Notification', realNotification);
  else delete (window as { Notification?: unknown }).Notification;
});

function sender(reference: string, display: string) {
  return { __typename: 'Reference', reference, display, resource: null };
}

function liveMessage(id: string, from: 'chen' | 'maria', text: string, received: string | null = null) {
  return {
    __typename: 'Communication',
    resourceType: 'Communication',
    id,
    meta: { __typename: 'Meta', lastUpdated: '2026-11-20T09:00:00Z' },
    status: 'completed',
    partOf: [{ __typename: 'Reference', reference: 'Communication/thread-1' }],
    category: null,
    sent: '2026-11-20T09:00:00Z',
    received,
    sender: from === 'chen' ? sender('Practitioner/chen', 'Dr. Lily Chen') : sender(MARIA, 'Maria Garcia'),
    payload: [{ __typename: 'CommunicationPayload', contentString: text, contentAttachment: null }],
  };
}

function appointment(status: string, chenAnswer: string) {
  return {
    __typename: 'Appointment',
    resourceType: 'Appointment',
    id: 'a-1',
    status,
    start: '2026-12-07T09:00:00Z',
    participant: [
      {
        __typename: 'AppointmentParticipant',
        actor: { __typename: 'Reference', reference: MARIA },
        status: 'accepted',
      },
      {
        __typename: 'AppointmentParticipant',
        actor: { __typename: 'Reference', reference: 'Practitioner/chen' },
        status: chenAnswer,
      },
    ],
  };
}

function renderNotifier() {
  const messages = new MockSubscriptionLink();
  const appointments = new MockSubscriptionLink();
  const link = ApolloLink.from([
    recordingLink(),
    ApolloLink.split((op) => op.operationName === 'AppointmentNoticeChanged', appointments, messages),
  ]);
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <BackgroundNotifier patient={MARIA} />
            <Outlet />
          </>
        ),
        children: [
          { index: true, element: <p>Home</p> },
          { path: 'messages', element: <p>Thread</p> },
          { path: 'Appointment/:id', element: <p>Appointment page</p> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <MockedProvider link={link} cache={createResourceCache()}>
      <RouterProvider router={router} />
    </MockedProvider>,
  );
  return { messages, appointments };
}

/** One live result, delivered (the mock link delivers on a timer) inside act. */
async function play(link: MockSubscriptionLink, data: Record<string, unknown>): Promise<void> {
  await act(async () => {
    link.simulateResult({ result: { data } });
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
}

async function started(link: MockSubscriptionLink, variables: Record<string, string>) {
  await waitFor(() => expect(link.operation?.variables).toEqual(variables));
}

describe('notifications while the page is hidden', () => {
  it('a care-team message notifies once; her own does not; a click opens the thread', async () => {
    const { messages } = renderNotifier();
    await started(messages, { subject: MARIA });
    await play(messages, { CommunicationChanged: liveMessage('m-1', 'chen', 'Results are in.') });
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    const [shown] = FakeNotification.shown;
    expect(shown.title).toBe('New message from Dr. Lily Chen');
    expect(shown.options).toMatchObject({
      body: 'Results are in.',
      tag: 'message-m-1',
      data: { url: '/messages' },
    });

    // The same message updated (her read receipt), and her own message: nothing more.
    await play(messages, {
      CommunicationChanged: liveMessage('m-1', 'chen', 'Results are in.', '2026-11-20T09:05:00Z'),
    });
    await play(messages, { CommunicationChanged: liveMessage('m-2', 'maria', 'Thanks!') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeNotification.shown).toHaveLength(1);

    act(() => shown.onclick?.());
    expect(await screen.findByText('Thread')).toBeInTheDocument();
    expect(shown.closed).toBe(true);
  });

  it('nothing while the page is visible, nor when the permission is denied or default', async () => {
    const { messages } = renderNotifier();
    await started(messages, { subject: MARIA });
    visibility = 'visible';
    await play(messages, { CommunicationChanged: liveMessage('m-3', 'chen', 'Seen here.') });
    visibility = 'hidden';
    FakeNotification.permission = 'denied';
    await play(messages, { CommunicationChanged: liveMessage('m-4', 'chen', 'Blocked.') });
    FakeNotification.permission = 'default';
    await play(messages, { CommunicationChanged: liveMessage('m-5', 'chen', 'Not asked.') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeNotification.shown).toEqual([]);
  });

  it('an appointment booked, then declined: two notifications; a click opens the appointment', async () => {
    const { appointments } = renderNotifier();
    await started(appointments, { patient: MARIA });
    await play(appointments, { AppointmentChanged: appointment('booked', 'tentative') });
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    await play(appointments, { AppointmentChanged: appointment('cancelled', 'declined') });
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(2));
    expect(FakeNotification.shown.map((n) => n.title)).toEqual([
      'Your appointment is booked',
      'Your appointment request was declined',
    ]);
    // The same state again (another field changed): nothing.
    await play(appointments, { AppointmentChanged: appointment('cancelled', 'declined') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeNotification.shown).toHaveLength(2);
    act(() => FakeNotification.shown[1].onclick?.());
    expect(await screen.findByText('Appointment page')).toBeInTheDocument();
  });
});

describe('the opt-in on the Messages screen', () => {
  function toggle(): HTMLElement {
    return screen.getByRole('switch', { name: NOTIFY_ME_LABEL.message });
  }

  it('asks the permission only when turned on; granted: on and remembered', async () => {
    FakeNotification.permission = 'default';
    render(<NotifyMeControl patient={MARIA} />);
    expect(toggle()).not.toBeChecked();
    expect(screen.getByText(NOTIFY_ME_HELP.off.message)).toBeInTheDocument();
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();

    FakeNotification.answer = 'granted';
    fireEvent.click(toggle());
    await waitFor(() => expect(toggle()).toBeChecked());
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(notificationChosen(MARIA)).toBe(true);
    expect(toggle()).toHaveAccessibleDescription(NOTIFY_ME_HELP.on.message);

    // Remembered: the screen opened again shows it on, without asking again.
    cleanup();
    render(<NotifyMeControl patient={MARIA} />);
    expect(toggle()).toBeChecked();
    expect(notificationChosen('Patient/someone-else')).toBe(false);
    // Turned off: forgotten.
    fireEvent.click(toggle());
    await waitFor(() => expect(toggle()).not.toBeChecked());
    expect(notificationChosen(MARIA)).toBe(false);
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
  });

  it('the permission refused when asked: stays off, says how to allow it', async () => {
    FakeNotification.permission = 'default';
    FakeNotification.answer = 'denied';
    render(<NotifyMeControl patient={MARIA} />);
    fireEvent.click(toggle());
    expect(await screen.findByText(NOTIFY_ME_HELP.denied.message)).toBeInTheDocument();
    expect(toggle()).not.toBeChecked();
    expect(notificationChosen(MARIA)).toBe(false);
  });

  it('already blocked: not asked again, stays off; no Notification API: the switch is disabled', async () => {
    FakeNotification.permission = 'denied';
    render(<NotifyMeControl patient={MARIA} />);
    expect(screen.getByText(NOTIFY_ME_HELP.denied.message)).toBeInTheDocument();
    fireEvent.click(toggle());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    expect(toggle()).not.toBeChecked();
    cleanup();

    delete (window as { Notification?: unknown }).Notification;
    render(<NotifyMeControl patient={MARIA} />);
    expect(toggle()).toBeDisabled();
    expect(screen.getByText(NOTIFY_ME_HELP.unsupported.message)).toBeInTheDocument();
  });
});
