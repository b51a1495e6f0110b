// Messages and Get Care show no English in Spanish (the scan: ../support/untranslated.ts), in their main
// states: the thread, no thread yet, a failed load, the composer refusing an empty message, a message
// waiting offline and one refused later, the notifications opt-in; the calendar with free times and
// appointments, the times of a day with the Selected Slot, no free times, no schedule, errors, the
// request refused without a slot and the request sent.
import type { Patient } from '@medplum/fhirtypes';
import { ApolloLink } from '@apollo/client/link';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { NotificationsProvider } from '../../../src/app/components/Notifications';
import { GetCarePage } from '../../../src/app/features/get-care/GetCarePage';
import { slotWindow } from '../../../src/app/features/get-care/slotWindow';
import { getCareStrings } from '../../../src/app/features/get-care/strings';
import { MessagesPage } from '../../../src/app/features/messages/MessagesPage';
import { MESSAGE_PAGE_SIZE, type ThreadMessage } from '../../../src/app/features/messages/threadMessages';
import { BloomClientProvider } from '../../../src/app/session/BloomClientContext';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { translate } from '../../../src/app/i18n/i18n';
import { OFFLINE_WRITES_STORAGE_KEY } from '../../../src/client/offline-writes';
import {
  CommunicationListDocument,
  createResourceCache,
  GetCareDocument,
  isSubscriptionOperation,
  LiveConnection,
  LiveConnectionContext,
} from '../../../src/graphql';
import {
  installFakeApi,
  maria,
  outcome,
  storeMariaLogin,
  testBaseUrl,
  type FakeApi,
} from '../support/fakeApi';
import { renderScreen, type ScreenMock } from '../support/renderScreen';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';

const MARIA = 'Patient/maria-1';
const THREAD_REF = 'Communication/thread-1';
const drChen = { reference: 'Practitioner/chen', display: 'Dr. Lily Chen' };

/** Names, the fixtures' texts (what the patient and the clinic wrote), the server's messages. */
const SAME_IN_BOTH = [
  'Maria',
  'M',
  'Maria Garcia',
  'Dr. Lily Chen',
  // Dr. Chen's initials where she has no photo; the server's reason after "Not sent".
  'LC',
  ': Forbidden',
  'Hello Maria, how are you feeling this week?',
  'Written on the bus',
  'Service unavailable',
  'Forbidden',
  'Prenatal visit (36 weeks)',
  'Prenatal visit (28 weeks)',
  'Search range cannot exceed 31 days',
];

// --- Messages -------------------------------------------------------------------------------------

function chenMessage(id: string, sent: string, text: string): ThreadMessage {
  return {
    __typename: 'Communication',
    resourceType: 'Communication',
    id,
    meta: { __typename: 'Meta', lastUpdated: sent },
    status: 'completed',
    partOf: [{ __typename: 'Reference', reference: THREAD_REF }],
    category: null,
    sent,
    received: null,
    sender: {
      __typename: 'Reference',
      ...drChen,
      resource: {
        __typename: 'Practitioner',
        resourceType: 'Practitioner',
        id: 'chen',
        name: [{ __typename: 'HumanName', given: ['Lily'], family: 'Chen' }],
        photo: null,
      },
    },
    payload: [{ __typename: 'CommunicationPayload', contentString: text, contentAttachment: null }],
    // The generated types leave out the __typename Apollo's cache adds to every object.
  } as unknown as ThreadMessage;
}

const THREAD = [chenMessage('m-1', '2026-11-20T09:10:00Z', 'Hello Maria, how are you feeling this week?')];

const communicationList = {
  query: CommunicationListDocument,
  variables: { subject: MARIA, count: MESSAGE_PAGE_SIZE, offset: 0 },
};

function threadPage(messages: ThreadMessage[] | null): ScreenMock {
  return {
    request: communicationList,
    result: {
      data: {
        CommunicationList: messages
          ? [
              {
                __typename: 'Communication',
                resourceType: 'Communication',
                id: 'thread-1',
                status: 'in-progress',
                topic: null,
                sent: messages[0]?.sent ?? null,
                subject: { __typename: 'Reference', reference: MARIA },
                recipient: [{ __typename: 'Reference', ...drChen }],
                messages,
              },
            ]
          : [],
      },
    },
  };
}

function setBrowserOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
}

let messagesApi: FakeApi | undefined;

function renderMessages(mocks: ScreenMock[]): void {
  setBrowserOnline(true);
  window.localStorage.removeItem(OFFLINE_WRITES_STORAGE_KEY);
  const profile: Patient = { ...maria, generalPractitioner: [drChen] };
  messagesApi = installFakeApi();
  storeMariaLogin();
  messagesApi.always('GET auth/me', 200, {
    profile,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference: MARIA } },
  });
  const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
  const link = ApolloLink.split(isSubscriptionOperation, new MockSubscriptionLink(), new MockLink(mocks));
  const router = createMemoryRouter([{ path: '/messages/*', element: <MessagesPage /> }], {
    initialEntries: ['/messages'],
  });
  render(
    <BloomClientProvider client={client}>
      <MockedProvider link={link} cache={createResourceCache()}>
        <LiveConnectionContext.Provider value={new LiveConnection()}>
          <RouterProvider router={router} />
        </LiveConnectionContext.Provider>
      </MockedProvider>
    </BloomClientProvider>,
  );
}

function composer(): HTMLElement {
  const field = document.querySelector('textarea:not([aria-hidden])');
  if (!(field instanceof HTMLElement)) throw new Error('no composer');
  return field;
}

/** Her message written offline, waiting in the thread. */
async function writeOffline(text: string): Promise<HTMLElement> {
  await screen.findByText(THREAD[0].payload?.[0]?.contentString ?? '');
  setBrowserOnline(false);
  fireEvent.change(composer(), { target: { value: text } });
  fireEvent.keyDown(composer(), { key: 'Enter' });
  await waitFor(() => expect(composer()).toHaveValue(''));
  return screen.findByText(text);
}

const MESSAGE_SCREENS: readonly ScreenCase[] = [
  {
    name: 'messages: a thread, the composer and the notifications opt-in',
    render: () => renderMessages([threadPage(THREAD)]),
    ready: () => screen.findByText('Hello Maria, how are you feeling this week?'),
  },
  {
    name: 'messages: no thread yet',
    render: () => renderMessages([threadPage(null)]),
    ready: () => waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull()),
  },
  {
    name: 'messages: a failed load with Try again',
    render: () => renderMessages([{ request: communicationList, error: new Error('Service unavailable') }]),
    ready: () => screen.findByRole('alert'),
  },
  {
    name: 'messages: the composer refusing an empty message',
    render: () => renderMessages([threadPage(THREAD)]),
    ready: async () => {
      await screen.findByText('Hello Maria, how are you feeling this week?');
      fireEvent.change(composer(), { target: { value: '   ' } });
      fireEvent.submit(composer().closest('form') as HTMLFormElement);
      return waitFor(() => expect(composer()).toHaveAttribute('aria-invalid', 'true'));
    },
  },
  {
    name: 'messages: a message waiting to send offline',
    render: () => renderMessages([threadPage(THREAD)]),
    ready: () => writeOffline('Written on the bus'),
  },
  {
    name: 'messages: a queued message refused (Not sent) with Dismiss',
    render: () => renderMessages([threadPage(THREAD)]),
    ready: async () => {
      await writeOffline('Written on the bus');
      const before = document.body.textContent ?? '';
      messagesApi?.once('POST fhir/R4/Communication', 403, outcome('Forbidden'));
      setBrowserOnline(true);
      act(() => {
        window.dispatchEvent(new Event('online'));
      });
      await waitFor(() => expect(document.body.textContent).not.toBe(before));
      return screen.findByText(/Forbidden/);
    },
  },
];

// --- Get Care -------------------------------------------------------------------------------------

// Tuesday 10 November 2026, noon, local.
const NOW = new Date(2026, 10, 10, 12, 0);
const local = (month: number, day: number, hour: number) => new Date(2026, month, day, hour).toISOString();
const SERVICE = 'HealthcareService/prenatal-care';
const chenRef = { __typename: 'Reference', ...drChen };

function findRoute(): string {
  const { start, end } = slotWindow(NOW);
  const query = new URLSearchParams({ start, end, 'service-type-reference': SERVICE, _count: '720' });
  return `GET fhir/R4/Schedule/sched-1/$find?${query}`;
}

function freeTimes(starts: string[]) {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: starts.map((start) => ({
      resource: {
        resourceType: 'Slot',
        schedule: { reference: 'Schedule/sched-1' },
        status: 'free',
        start,
        end: new Date(Date.parse(start) + 3_600_000).toISOString(),
      },
    })),
  };
}

function appointment(id: string, start: string, status: string, description: string) {
  return {
    __typename: 'Appointment',
    resourceType: 'Appointment',
    id,
    status,
    start,
    end: null,
    description,
    serviceType: null,
    participant: [{ __typename: 'AppointmentParticipant', actor: chenRef }],
  };
}

function getCareMock(hasSchedule: boolean, withAppointments: boolean): ScreenMock {
  return {
    request: { query: GetCareDocument, variables: { patient: MARIA } },
    result: {
      data: {
        ScheduleList: hasSchedule
          ? [
              {
                __typename: 'Schedule',
                resourceType: 'Schedule',
                id: 'sched-1',
                planningHorizon: null,
                actor: [chenRef],
                serviceType: [
                  {
                    __typename: 'CodeableConcept',
                    extension: [
                      {
                        __typename: 'Extension',
                        url: 'https://medplum.com/fhir/service-type-reference',
                        valueReference: { __typename: 'Reference', reference: SERVICE },
                      },
                    ],
                  },
                ],
              },
            ]
          : [],
        AppointmentList: withAppointments
          ? [
              appointment('a-past', local(9, 20, 10), 'fulfilled', 'Prenatal visit (28 weeks)'),
              appointment('a-next', local(10, 26, 14), 'booked', 'Prenatal visit (36 weeks)'),
            ]
          : [],
      },
    },
  };
}

const THREAD_SEARCH =
  'GET fhir/R4/Communication?subject=Patient%2Fmaria-1&part-of%3Amissing=true&_sort=-_lastUpdated&_count=1';

function renderGetCare(mocks: ScreenMock[], free: (api: FakeApi) => void): FakeApi {
  const { api } = renderScreen(
    <NotificationsProvider>
      <GetCarePage now={NOW} />
    </NotificationsProvider>,
    mocks,
    { path: '/get-care', pattern: '/get-care/*' },
  );
  free(api);
  const thread = { resourceType: 'Communication', id: 'thread-1', status: 'in-progress' };
  api.always(THREAD_SEARCH, 200, {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [{ resource: thread }],
  });
  api.always('PATCH fhir/R4/Communication/thread-1', 200, thread);
  return api;
}

const someFreeTimes = (api: FakeApi) =>
  api.always(findRoute(), 200, freeTimes([local(10, 12, 9), local(10, 12, 10), local(10, 20, 14)]));

/** A day button with free times: enabled gridcells are buttons. */
async function freeDay(): Promise<HTMLElement> {
  return waitFor(() => {
    const day = document.querySelector<HTMLElement>('[role="gridcell"]:not([disabled])');
    if (!day || day.tagName !== 'BUTTON') throw new Error('no free day yet');
    return day;
  });
}

async function pickTime(): Promise<void> {
  fireEvent.click(await freeDay());
  const times = await screen.findByRole('group');
  fireEvent.click(within(times).getAllByRole('button')[0]);
}

/** Send Request, in the language being scanned. */
function clickSend(): void {
  fireEvent.click(screen.getByRole('button', { name: translate(getCareStrings.send) }));
}

const GET_CARE_SCREENS: readonly ScreenCase[] = [
  {
    name: 'get care: the calendar with free days, upcoming and past appointments',
    render: () => renderGetCare([getCareMock(true, true)], someFreeTimes),
    ready: freeDay,
  },
  {
    name: 'get care: the times of a day and the selected slot',
    render: () => renderGetCare([getCareMock(true, true)], someFreeTimes),
    ready: async () => {
      await pickTime();
      return screen.findAllByRole('heading');
    },
  },
  {
    name: 'get care: no free times this month, no appointments',
    render: () =>
      renderGetCare([getCareMock(true, false)], (api) => api.always(findRoute(), 200, freeTimes([]))),
    ready: () =>
      waitFor(() => expect(document.querySelectorAll('[role="gridcell"][disabled]').length).toBe(30)),
  },
  {
    name: 'get care: a clinic without a schedule',
    render: () => renderGetCare([getCareMock(false, false)], () => undefined),
    ready: () => waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull()),
  },
  {
    name: 'get care: the free times refused, with Try again',
    render: () =>
      renderGetCare([getCareMock(true, true)], (api) =>
        api.always(findRoute(), 400, outcome('Search range cannot exceed 31 days')),
      ),
    ready: () => screen.findByRole('alert'),
  },
  {
    name: 'get care: the screen failed to load, with Try again',
    render: () =>
      renderGetCare(
        [{ request: getCareMock(true, true).request, error: new Error('Forbidden') }],
        someFreeTimes,
      ),
    ready: () => screen.findByRole('alert'),
  },
  {
    name: 'get care: Send Request without a slot',
    render: () => renderGetCare([getCareMock(true, true)], someFreeTimes),
    ready: async () => {
      await freeDay();
      clickSend();
      return screen.findByRole('alert');
    },
  },
  {
    name: 'get care: the request refused (a time taken meanwhile)',
    render: () => {
      const api = renderGetCare([getCareMock(true, true), getCareMock(true, true)], someFreeTimes);
      api.once('POST fhir/R4/Appointment/$book', 409, outcome('Slot is no longer free'));
    },
    ready: async () => {
      await pickTime();
      clickSend();
      return screen.findByRole('alert');
    },
  },
];

describeUntranslated(
  'messages and get care show no English in Spanish',
  [...MESSAGE_SCREENS, ...GET_CARE_SCREENS],
  [...SAME_IN_BOTH, 'Slot is no longer free'],
);

afterAll(() => {
  setBrowserOnline(true);
  window.localStorage.removeItem(OFFLINE_WRITES_STORAGE_KEY);
});
