// The messages screen (SPEC §2 messages, §3 Communication/Attachment, §7 CommunicationList,
// Binary, live updates, §8): its loading, empty, data and error states, older pages, sending text and a
// file with upload progress, a failed send (reason shown, draft kept, Try again), the empty message
// refused in the form, a care-team message arriving live and the refetch after a reconnection. Messages
// are a thread as Medplum's ThreadChat keeps it: each message partOf her thread header, a
// sent message partOf it and the header PATCHed after it, her first message opening the thread. Apollo's
// MockLink answers the queries, MockSubscriptionLink plays the CommunicationChanged subscription, the
// fake API takes the REST writes and a fake XMLHttpRequest the upload (as a browser sends it).
import type { Binary, Communication, Patient } from '@medplum/fhirtypes';
import { ApolloLink } from '@apollo/client/link';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  CommunicationListDocument,
  createResourceCache,
  isSubscriptionOperation,
  LiveConnection,
  LiveConnectionContext,
} from '../../../../src/graphql';
import { BloomClientProvider } from '../../../../src/app/session/BloomClientContext';
import { createAppClient } from '../../../../src/app/session/createAppClient';
import { MessagesPage } from '../../../../src/app/features/messages/MessagesPage';
import { messagesStrings } from '../../../../src/app/features/messages/strings';
import { OFFLINE_REASONS } from '../../../../src/app/features/messages/useSendMessage';
import { OFFLINE_WRITES_STORAGE_KEY } from '../../../../src/client/offline-writes';
import { DRAFT_ERRORS, newMessage, draftProblem } from '../../../../src/app/features/messages/newMessage';
import {
  MESSAGE_PAGE_SIZE,
  mergeMessages,
  type ThreadMessage,
} from '../../../../src/app/features/messages/threadMessages';
import {
  installFakeApi,
  testBaseUrl,
  maria,
  outcome,
  storeMariaLogin,
  type FakeApi,
} from '../../support/fakeApi';
import type { ScreenMock } from '../../support/renderScreen';

const MARIA = 'Patient/maria-1';
const THREAD_ID = 'thread-1';
const THREAD_REF = `Communication/${THREAD_ID}`;
const drChen = { reference: 'Practitioner/chen', display: 'Dr. Lily Chen' };
/** Her newest thread header, as the composer looks for one when the screen holds none. */
const THREAD_SEARCH =
  'GET fhir/R4/Communication?subject=Patient%2Fmaria-1&part-of%3Amissing=true&_sort=-_lastUpdated&_count=1';
const mariaWithDoctor: Patient = { ...maria, generalPractitioner: [drChen] };

function chenSender() {
  return {
    __typename: 'Reference',
    reference: 'Practitioner/chen',
    display: 'Dr. Lily Chen',
    resource: {
      __typename: 'Practitioner',
      resourceType: 'Practitioner',
      id: 'chen',
      name: [{ __typename: 'HumanName', given: ['Lily'], family: 'Chen' }],
      photo: [{ __typename: 'Attachment', contentType: 'image/svg+xml', url: null, data: 'PHN2Zy8+' }],
    },
  };
}

function mariaSender() {
  return {
    __typename: 'Reference',
    reference: MARIA,
    display: 'Maria Garcia',
    resource: {
      __typename: 'Patient',
      resourceType: 'Patient',
      id: 'maria-1',
      name: [{ __typename: 'HumanName', given: ['Maria'], family: 'Garcia' }],
      photo: null,
    },
  };
}

interface MessageSpec {
  id: string;
  sent: string;
  from?: 'chen' | 'maria';
  text?: string;
  attachment?: { contentType: string; url: string; title: string };
  category?: string;
  thread?: string;
}

function message({
  id,
  sent,
  from = 'chen',
  text,
  attachment,
  category,
  thread = THREAD_REF,
}: MessageSpec): ThreadMessage {
  return {
    __typename: 'Communication',
    resourceType: 'Communication',
    id,
    meta: { __typename: 'Meta', lastUpdated: sent },
    status: 'completed',
    partOf: [{ __typename: 'Reference', reference: thread }],
    category: category
      ? [
          {
            __typename: 'CodeableConcept',
            text: null,
            coding: [
              {
                __typename: 'Coding',
                system: 'https://bloom.example/fhir/CodeSystem/communication-category',
                code: category,
                display: null,
              },
            ],
          },
        ]
      : null,
    sent,
    received: null,
    sender: from === 'chen' ? chenSender() : mariaSender(),
    payload: [
      ...(text ? [{ __typename: 'CommunicationPayload', contentString: text, contentAttachment: null }] : []),
      ...(attachment
        ? [
            {
              __typename: 'CommunicationPayload',
              contentString: null,
              contentAttachment: { __typename: 'Attachment', size: 68, ...attachment },
            },
          ]
        : []),
    ],
    // The generated types leave out the __typename Apollo's cache adds to every object.
  } as unknown as ThreadMessage;
}

/** Her thread header with one page of its messages, as CommunicationList answers it. */
function threadPage(messages: ThreadMessage[], id = THREAD_ID) {
  return {
    __typename: 'Communication',
    resourceType: 'Communication',
    id,
    status: 'in-progress',
    topic: { __typename: 'CodeableConcept', text: 'Questions for Dr. Chen' },
    sent: messages[0]?.sent ?? null,
    subject: { __typename: 'Reference', reference: MARIA },
    recipient: [
      { __typename: 'Reference', reference: MARIA, display: 'Maria Garcia' },
      { __typename: 'Reference', ...drChen },
    ],
    messages,
  };
}

/** A CommunicationList answer: her thread with `messages`, or no thread at all (`null`). */
function page(offset: number, messages: ThreadMessage[] | null, delay?: number, id?: string): ScreenMock {
  return {
    request: {
      query: CommunicationListDocument,
      variables: { subject: MARIA, count: MESSAGE_PAGE_SIZE, offset },
    },
    result: { data: { CommunicationList: messages ? [threadPage(messages, id)] : [] } },
    ...(delay === undefined ? {} : { delay }),
  };
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();

// Newest first, as the server answers `_sort: "-sent"`.
const THREAD = [
  message({
    id: 'm-3',
    sent: at(30),
    from: 'maria',
    text: 'Here is the photo of my rash.',
    attachment: { contentType: 'image/png', url: 'https://files.test/rash.png?sig=1', title: 'rash.png' },
  }),
  message({
    id: 'm-2',
    sent: at(20),
    from: 'maria',
    text: 'Appointment request for Monday.',
    category: 'appointment-request',
  }),
  message({ id: 'm-1', sent: at(10), text: 'Hello Maria, how are you feeling this week?' }),
];

/** The fake XMLHttpRequest the client uploads through (a browser's upload progress). */
class FakeXhr {
  static last: FakeXhr | undefined;
  static count = 0;
  method = '';
  url = '';
  body: unknown;
  status = 0;
  responseText = '';
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
    FakeXhr.count += 1;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  getAllResponseHeaders() {
    return 'content-type: application/fhir+json\r\n';
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

interface Rendered {
  api: FakeApi;
  live: LiveConnection;
  socket: MockSubscriptionLink;
  operations: string[];
}

function renderMessages(mocks: ScreenMock[], profile: Patient = mariaWithDoctor): Rendered {
  const api = installFakeApi();
  storeMariaLogin();
  api.always('GET auth/me', 200, {
    profile,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference: MARIA } },
  });
  const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
  const socket = new MockSubscriptionLink();
  const operations: string[] = [];
  const counted = new ApolloLink((operation, forward) => {
    operations.push(operation.operationName ?? '');
    return forward(operation);
  });
  const link = ApolloLink.from([
    counted,
    ApolloLink.split(isSubscriptionOperation, socket, new MockLink(mocks)),
  ]);
  const live = new LiveConnection();
  const router = createMemoryRouter([{ path: '/messages/*', element: <MessagesPage /> }], {
    initialEntries: ['/messages'],
  });
  render(
    <BloomClientProvider client={client}>
      <MockedProvider link={link} cache={createResourceCache()}>
        <LiveConnectionContext.Provider value={live}>
          <RouterProvider router={router} />
        </LiveConnectionContext.Provider>
      </MockedProvider>
    </BloomClientProvider>,
  );
  return { api, live, socket, operations };
}

function messageItems(): HTMLElement[] {
  return within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
}

function composer(): HTMLElement {
  return screen.getByRole('textbox', { name: 'Message to your care team' });
}

const realXhr = globalThis.XMLHttpRequest;
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
  FakeXhr.last = undefined;
  FakeXhr.count = 0;
});

describe('messages screen states', () => {
  it('shows a loading state until the thread arrives, with the page title', async () => {
    renderMessages([page(0, THREAD, 300)]);
    expect(await screen.findByRole('progressbar', { name: 'Loading messages' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Messages · Bloom'));
    expect(await screen.findByText('Hello Maria, how are you feeling this week?')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading messages' })).not.toBeInTheDocument();
  });

  it('no thread yet invites the first message; the composer is there', async () => {
    renderMessages([page(0, null)]);
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
    expect(composer()).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
  });

  it('shows the thread oldest first with sender, photo, time, text, category and the image in the attachment viewer, in one GraphQL request', async () => {
    const { operations } = renderMessages([page(0, THREAD)]);
    await screen.findByText('Here is the photo of my rash.');
    const items = messageItems();
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Hello Maria, how are you feeling this week?'),
      expect.stringContaining('Appointment request for Monday.'),
      expect.stringContaining('Here is the photo of my rash.'),
    ]);
    expect(within(items[0]).getByText('Dr. Lily Chen')).toBeInTheDocument();
    expect(items[0].querySelector('img')?.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(within(items[0]).getByText('Dr. Lily Chen').closest('li')?.querySelector('time')).toHaveAttribute(
      'datetime',
      at(10),
    );
    expect(within(items[1]).getByText('Maria Garcia (you)')).toBeInTheDocument();
    expect(within(items[1]).getByText('Appointment request')).toBeInTheDocument();
    expect(within(items[2]).getByRole('img', { name: 'rash.png' })).toHaveAttribute(
      'src',
      'https://files.test/rash.png?sig=1',
    );
    expect(within(items[2]).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'https://files.test/rash.png?sig=1',
    );
    expect(screen.getByRole('region', { name: 'Conversation with your care team' })).toHaveAttribute(
      'tabindex',
      '0',
    );
    expect(screen.getByText('Start of your conversation')).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(operations).toEqual(['CommunicationList', 'CommunicationChanged']);
  });

  it('a failed load shows the reason and Try again loads the thread', async () => {
    renderMessages([
      {
        request: {
          query: CommunicationListDocument,
          variables: { subject: MARIA, count: MESSAGE_PAGE_SIZE, offset: 0 },
        },
        error: new Error('Service unavailable'),
      },
      page(0, THREAD),
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Service unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Maria, how are you feeling this week?')).toBeInTheDocument();
  });

  it('a full page offers older messages; Load older messages adds them above, until the start', async () => {
    const newest = Array.from({ length: MESSAGE_PAGE_SIZE }, (_, i) =>
      message({ id: `n-${i}`, sent: at(59 - i), text: `Newer ${59 - i}` }),
    );
    const oldest = [message({ id: 'o-1', sent: at(5), text: 'The very first message' })];
    renderMessages([page(0, newest), page(MESSAGE_PAGE_SIZE, oldest)]);
    await screen.findByText('Newer 59');
    expect(messageItems()).toHaveLength(MESSAGE_PAGE_SIZE);
    fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByText('The very first message')).toBeInTheDocument();
    const items = messageItems();
    expect(items).toHaveLength(MESSAGE_PAGE_SIZE + 1);
    expect(items[0]).toHaveTextContent('The very first message');
    expect(items[items.length - 1]).toHaveTextContent('Newer 59');
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
    expect(screen.getByText('Start of your conversation')).toBeInTheDocument();
  });
});

describe('sending a message', () => {
  it('Enter sends the text as a completed Communication to her doctor; the thread shows it and the composer empties', async () => {
    const mine = message({ id: 'm-4', sent: at(40), from: 'maria', text: 'Thank you, doctor!' });
    const { api } = renderMessages([page(0, THREAD), page(0, [mine, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-4' });
    api.once(`PATCH fhir/R4/${THREAD_REF}`, 200, { resourceType: 'Communication', id: THREAD_ID });
    const before = Date.now();
    fireEvent.change(composer(), { target: { value: '  Thank you, doctor!\n' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(await screen.findByText('Thank you, doctor!', { selector: 'p' })).toBeInTheDocument();
    await waitFor(() => expect(composer()).toHaveValue(''));
    expect(screen.getByRole('status')).toHaveTextContent('Message sent');
    const [sent] = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(sent).toMatchObject({
      resourceType: 'Communication',
      status: 'completed',
      partOf: [{ reference: THREAD_REF }],
      subject: { reference: MARIA },
      sender: { reference: MARIA },
      recipient: [drChen],
      category: [{ coding: [{ code: 'message' }] }],
      payload: [{ contentString: 'Thank you, doctor!' }],
    });
    expect(Date.parse(sent.sent ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(messageItems()[messageItems().length - 1]).toHaveTextContent('Thank you, doctor!');
    // Then the thread header, as Medplum's ThreadChat touches it after each message.
    await waitFor(() =>
      expect(api.bodiesOf(`PATCH fhir/R4/${THREAD_REF}`)).toEqual([
        [{ op: 'add', path: '/sent', value: sent.sent }],
      ]),
    );
    expect(api.bodiesOf('POST fhir/R4/Communication')).toHaveLength(1);
  });

  it('her first message opens a thread (a header about her, to her doctor), then goes partOf it', async () => {
    const mine = message({
      id: 'm-1',
      sent: at(40),
      from: 'maria',
      text: 'Hello!',
      thread: 'Communication/new-thread',
    });
    const { api } = renderMessages([page(0, null), page(0, [mine], undefined, 'new-thread')]);
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
    api.once(THREAD_SEARCH, 200, { resourceType: 'Bundle', type: 'searchset', entry: [] });
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'new-thread' });
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-1' });
    api.once('PATCH fhir/R4/Communication/new-thread', 200, {
      resourceType: 'Communication',
      id: 'new-thread',
    });
    fireEvent.change(composer(), { target: { value: 'Hello!' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(await screen.findByText('Hello!', { selector: 'p' })).toBeInTheDocument();
    const [header, first] = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(header).toEqual({
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: MARIA, display: 'Maria Garcia' },
      sender: { reference: MARIA, display: 'Maria Garcia' },
      recipient: [{ reference: MARIA, display: 'Maria Garcia' }, drChen],
      topic: { text: 'Messages with my care team' },
    });
    expect(first).toMatchObject({ partOf: [{ reference: 'Communication/new-thread' }], recipient: [drChen] });
    await waitFor(() => expect(api.bodiesOf('PATCH fhir/R4/Communication/new-thread')).toHaveLength(1));
  });

  it('a thread opened elsewhere since the screen loaded is found and used: no second header', async () => {
    const mine = message({
      id: 'm-1',
      sent: at(40),
      from: 'maria',
      text: 'Hi again',
      thread: 'Communication/opened',
    });
    const { api } = renderMessages([page(0, null), page(0, [mine], undefined, 'opened')]);
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
    const opened = {
      resourceType: 'Communication',
      id: 'opened',
      status: 'in-progress',
      recipient: [{ reference: MARIA }, drChen],
    };
    api.once(THREAD_SEARCH, 200, {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [{ resource: opened }],
    });
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-1' });
    api.once('PATCH fhir/R4/Communication/opened', 200, opened);
    fireEvent.change(composer(), { target: { value: 'Hi again' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(await screen.findByText('Hi again', { selector: 'p' })).toBeInTheDocument();
    const posted = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ partOf: [{ reference: 'Communication/opened' }], recipient: [drChen] });
  });

  it('her message echoed by the subscription while the refetch after sending is in flight shows once', async () => {
    const mine = message({ id: 'm-4', sent: at(40), from: 'maria', text: 'Echoed while refetching' });
    const { api, socket } = renderMessages([page(0, THREAD), page(0, [mine, ...THREAD], 400)]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    await waitFor(() => expect(socket.operation).toBeDefined());
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-4' });
    fireEvent.change(composer(), { target: { value: 'Echoed while refetching' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(api.bodiesOf('POST fhir/R4/Communication')).toHaveLength(1));
    act(() => socket.simulateResult({ result: { data: { CommunicationChanged: mine } } }));
    expect(await screen.findByText('Echoed while refetching', { selector: 'p' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    expect(screen.getAllByText('Echoed while refetching', { selector: 'p' })).toHaveLength(1);
    expect(messageItems()).toHaveLength(THREAD.length + 1);
  });

  it('Shift+Enter does not send', async () => {
    const { api } = renderMessages([page(0, THREAD)]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    fireEvent.change(composer(), { target: { value: 'First line' } });
    fireEvent.keyDown(composer(), { key: 'Enter', shiftKey: true });
    expect(api.bodiesOf('POST fhir/R4/Communication')).toHaveLength(0);
  });

  it('an empty message is refused in the form and nothing is sent', async () => {
    const { api } = renderMessages([page(0, THREAD)]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    fireEvent.change(composer(), { target: { value: '   \n ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(DRAFT_ERRORS.empty.message)).toBeInTheDocument();
    expect(composer()).toHaveAttribute('aria-invalid', 'true');
    expect(composer()).toHaveFocus();
    expect(api.sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('a failed send shows the reason with Try again and keeps the draft; Try again sends it', async () => {
    const mine = message({ id: 'm-4', sent: at(40), from: 'maria', text: 'Is it normal to feel dizzy?' });
    const { api } = renderMessages([page(0, THREAD), page(0, [mine, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    api.once('POST fhir/R4/Communication', 400, outcome('Communication.payload is invalid'));
    fireEvent.change(composer(), { target: { value: 'Is it normal to feel dizzy?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your message was not sent: Communication.payload is invalid');
    expect(composer()).toHaveValue('Is it normal to feel dizzy?');
    expect(screen.queryByText('Is it normal to feel dizzy?', { selector: 'p' })).not.toBeInTheDocument();

    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-4' });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Is it normal to feel dizzy?', { selector: 'p' })).toBeInTheDocument();
    await waitFor(() => expect(composer()).toHaveValue(''));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.bodiesOf('POST fhir/R4/Communication')).toHaveLength(2);
  });

  it('a file uploads with a progress bar, then goes as contentAttachment; a failed Communication is retried without uploading again', async () => {
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
    const mine = message({
      id: 'm-4',
      sent: at(40),
      from: 'maria',
      text: 'My scan',
      attachment: { contentType: 'image/png', url: 'https://files.test/scan.png?sig=2', title: 'scan.png' },
    });
    const { api } = renderMessages([page(0, THREAD), page(0, [mine, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    const file = new File([new Uint8Array(68)], 'scan.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('File to attach'), { target: { files: [file] } });
    expect(screen.getByText('Attached: scan.png (68 B)')).toBeInTheDocument();
    fireEvent.change(composer(), { target: { value: 'My scan' } });
    api.once('POST fhir/R4/Communication', 503, outcome('Service unavailable'));
    api.once('POST fhir/R4/Communication', 503, outcome('Service unavailable'));
    api.once('POST fhir/R4/Communication', 503, outcome('Service unavailable'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(FakeXhr.last?.url).toBe(`${testBaseUrl}fhir/R4/Binary?_filename=scan.png`));
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.body).toBe(file);
    act(() => xhr.progress(34, 68));
    const bar = screen.getByRole('progressbar', { name: 'Uploading scan.png' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByText('Uploading scan.png: 50%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    const binary: Binary = { resourceType: 'Binary', id: 'bin-1', contentType: 'image/png' };
    act(() => {
      xhr.progress(68, 68);
      xhr.respond(201, binary);
    });

    // The Communication fails (the client retried the 503s): the draft, file included, is kept.
    const alert = await screen.findByRole('alert', undefined, { timeout: 8000 });
    expect(alert).toHaveTextContent('Your message was not sent: Service unavailable');
    expect(screen.getByText('Attached: scan.png (68 B)')).toBeInTheDocument();
    expect(composer()).toHaveValue('My scan');

    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-4' });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: 'scan.png' })).toHaveAttribute(
      'src',
      'https://files.test/scan.png?sig=2',
    );
    expect(FakeXhr.count).toBe(1);
    const bodies = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(bodies[bodies.length - 1].payload).toEqual([
      { contentString: 'My scan' },
      {
        contentAttachment: {
          contentType: 'image/png',
          url: `${testBaseUrl}fhir/R4/Binary/bin-1`,
          title: 'scan.png',
          size: 68,
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByText(/^Attached:/)).not.toBeInTheDocument());
  }, 20_000);
});

function setBrowserOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
}

describe('messages written offline', () => {
  afterEach(() => {
    setBrowserOnline(true);
    window.localStorage.removeItem(OFFLINE_WRITES_STORAGE_KEY);
  });

  it('offline: shown in the thread as Waiting to send, nothing sent; online: sent once with its Idempotency-Key, then in the thread', async () => {
    const mine = message({ id: 'm-4', sent: at(40), from: 'maria', text: 'Written on the bus' });
    const { api } = renderMessages([page(0, THREAD), page(0, [mine, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    setBrowserOnline(false);
    fireEvent.change(composer(), { target: { value: 'Written on the bus' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    const waiting = await screen.findByRole('list', { name: 'Messages waiting to send' });
    expect(waiting).toHaveTextContent(/Written on the bus\s*Waiting to send/);
    await waitFor(() => expect(composer()).toHaveValue(''));
    expect(screen.getByRole('status')).toHaveTextContent(messagesStrings.queued.message);
    expect(api.sent.filter((request) => request.method !== 'GET')).toEqual([]);

    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'm-4' });
    setBrowserOnline(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Messages waiting to send' })).toBeNull());
    expect(await screen.findByText('Written on the bus', { selector: 'p' })).toBeInTheDocument();
    const posts = api.sent.filter((r) => r.method === 'POST' && r.path === 'fhir/R4/Communication');
    expect(posts).toHaveLength(1);
    expect(posts[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(posts[0].body as Communication).toMatchObject({
      partOf: [{ reference: THREAD_REF }],
      sender: { reference: MARIA },
      payload: [{ contentString: 'Written on the bus' }],
    });
    // Another online event sends nothing more.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a refused queued message shows Not sent with the reason, and Dismiss removes it', async () => {
    const { api } = renderMessages([page(0, THREAD)]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    setBrowserOnline(false);
    fireEvent.change(composer(), { target: { value: 'Refused later' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await screen.findByRole('list', { name: 'Messages waiting to send' });
    api.once('POST fhir/R4/Communication', 403, outcome('Forbidden'));
    setBrowserOnline(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    const waiting = await screen.findByRole('list', { name: 'Messages waiting to send' });
    await waitFor(() => expect(waiting).toHaveTextContent('Not sent: Forbidden'));
    fireEvent.click(within(waiting).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('list', { name: 'Messages waiting to send' })).toBeNull();
  });

  it('offline, a file or a first message (which opens her thread) is refused with the reason and the draft kept', async () => {
    const { api } = renderMessages([page(0, null)]);
    await screen.findByText(/No messages yet/);
    setBrowserOnline(false);
    fireEvent.change(composer(), { target: { value: 'My first message' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(await screen.findByRole('alert')).toHaveTextContent(OFFLINE_REASONS.firstMessage.message);
    expect(composer()).toHaveValue('My first message');
    expect(screen.queryByRole('list', { name: 'Messages waiting to send' })).toBeNull();
    expect(api.sent.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('live messages', () => {
  it('a care-team message arrives through the subscription and is announced; after a reconnection the thread refetches what was missed', async () => {
    const missed = message({ id: 'm-6', sent: at(50), text: 'Did you get my last note?' });
    const { socket, live, operations } = renderMessages([page(0, THREAD), page(0, [missed, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    await waitFor(() => expect(socket.operation?.variables).toEqual({ subject: MARIA }));

    // A message of another thread of hers, and a header's own change, do not join this thread.
    const elsewhere = message({
      id: 'x-1',
      sent: at(44),
      text: 'In another thread',
      thread: 'Communication/other',
    });
    act(() => socket.simulateResult({ result: { data: { CommunicationChanged: elsewhere } } }));
    const arriving = message({ id: 'm-5', sent: at(45), text: 'Your results look good.' });
    act(() => socket.simulateResult({ result: { data: { CommunicationChanged: arriving } } }));
    expect(await screen.findByText('Your results look good.')).toBeInTheDocument();
    expect(messageItems()[messageItems().length - 1]).toHaveTextContent('Your results look good.');
    expect(screen.getByRole('status')).toHaveTextContent(
      'New message from Dr. Lily Chen: Your results look good.',
    );
    expect(screen.queryByText('In another thread')).not.toBeInTheDocument();

    // The first connection is the screen's own; the second follows a drop and refetches the newest page.
    act(() => live.connected());
    expect(operations.filter((name) => name === 'CommunicationList')).toHaveLength(1);
    act(() => live.connected());
    expect(await screen.findByText('Did you get my last note?')).toBeInTheDocument();
    expect(messageItems().map((item) => item.textContent)).toEqual([
      expect.stringContaining('Hello Maria'),
      expect.stringContaining('Appointment request for Monday.'),
      expect.stringContaining('Here is the photo of my rash.'),
      expect.stringContaining('Your results look good.'),
      expect.stringContaining('Did you get my last note?'),
    ]);
  });
});

describe('live messages without a thread yet', () => {
  it('a care-team message in a thread opened elsewhere brings that thread in', async () => {
    const first = message({
      id: 'c-1',
      sent: at(45),
      text: 'Welcome to the clinic!',
      thread: 'Communication/by-chen',
    });
    const { socket, operations } = renderMessages([page(0, null), page(0, [first], undefined, 'by-chen')]);
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
    await waitFor(() => expect(socket.operation).toBeDefined());
    act(() => socket.simulateResult({ result: { data: { CommunicationChanged: first } } }));
    expect(await screen.findByText('Welcome to the clinic!')).toBeInTheDocument();
    expect(operations.filter((name) => name === 'CommunicationList')).toHaveLength(2);
  });
});

describe('nothing missed across a dropped connection', () => {
  it('more messages than a page while the socket was down: the thread fetches pages until it meets the ones it had', async () => {
    // 45 messages written while away, newest first: two full pages and a third reaching THREAD.
    const away = Array.from({ length: 45 }, (_, i) =>
      message({ id: `away-${45 - i}`, sent: at(100 + 45 - i), text: `Written while away ${45 - i}` }),
    );
    const server = [...away, ...THREAD];
    const pageAt = (offset: number) => page(offset, server.slice(offset, offset + MESSAGE_PAGE_SIZE));
    const { live, operations } = renderMessages([page(0, THREAD), pageAt(0), pageAt(20), pageAt(40)]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    act(() => live.connected());
    act(() => live.connected());
    expect(await screen.findByText('Written while away 1')).toBeInTheDocument();
    await waitFor(() => expect(messageItems()).toHaveLength(48));
    // Oldest first, with no hole between what she had and what came in.
    expect(messageItems().map((item) => item.textContent)).toEqual([
      expect.stringContaining('Hello Maria'),
      expect.stringContaining('Appointment request for Monday.'),
      expect.stringContaining('Here is the photo of my rash.'),
      ...Array.from({ length: 45 }, (_, i) => expect.stringContaining(`Written while away ${i + 1}`)),
    ]);
    // The first page and three refresh pages; the third reached her thread, so no fourth.
    expect(operations.filter((name) => name === 'CommunicationList')).toHaveLength(4);
  });

  it('a refresh whose first page reaches the thread fetches one page only', async () => {
    const missed = message({ id: 'm-7', sent: at(55), text: 'One while away' });
    const { live, operations } = renderMessages([page(0, THREAD), page(0, [missed, ...THREAD])]);
    await screen.findByText('Hello Maria, how are you feeling this week?');
    act(() => live.connected());
    act(() => live.connected());
    expect(await screen.findByText('One while away')).toBeInTheDocument();
    expect(operations.filter((name) => name === 'CommunicationList')).toHaveLength(2);
  });
});

describe('message rules', () => {
  it('merges pages and live messages newest first, without duplicates, the newer version winning', () => {
    const a = message({ id: 'a', sent: at(1), text: 'a' });
    const b = message({ id: 'b', sent: at(2), text: 'b' });
    const bEdited = message({ id: 'b', sent: at(2), text: 'b2' });
    const c = message({ id: 'c', sent: at(3), text: 'c' });
    expect(
      mergeMessages([c, b], [bEdited, a, null]).map((m) => [m.id, m.payload?.[0]?.contentString]),
    ).toEqual([
      ['c', 'c'],
      ['b', 'b2'],
      ['a', 'a'],
    ]);
    const undated = { ...message({ id: 'u', sent: at(0) }), sent: null, meta: null } as ThreadMessage;
    expect(mergeMessages([undated, a], []).map((m) => m.id)).toEqual(['a', 'u']);
  });

  it('refuses empty, too long and too large drafts', () => {
    expect(draftProblem({ text: ' \n', file: undefined })).toBe(DRAFT_ERRORS.empty);
    expect(draftProblem({ text: 'x'.repeat(5001), file: undefined })).toBe(DRAFT_ERRORS.tooLong);
    expect(draftProblem({ text: '', file: new File([], 'empty.png') })).toBe(DRAFT_ERRORS.emptyFile);
    const huge = new File(['x'], 'huge.mp4');
    Object.defineProperty(huge, 'size', { value: 33 * 1024 * 1024 });
    expect(draftProblem({ text: '', file: huge })).toBe(DRAFT_ERRORS.fileTooLarge);
    expect(draftProblem({ text: '', file: new File(['x'], 'ok.png') })).toBeUndefined();
  });

  it('builds the Communication without a recipient when she has no doctor, and without empty text', () => {
    const built = newMessage({
      thread: THREAD_REF,
      patient: { reference: MARIA },
      recipients: undefined,
      text: '  ',
      attachment: { contentType: 'application/pdf', url: 'Binary/1', title: 'a.pdf' },
      sent: new Date(at(0)),
    });
    expect(built.recipient).toBeUndefined();
    expect(built.partOf).toEqual([{ reference: THREAD_REF }]);
    expect(built.sent).toBe(at(0));
    expect(built.payload).toEqual([
      { contentAttachment: { contentType: 'application/pdf', url: 'Binary/1', title: 'a.pdf' } },
    ]);
  });
});
