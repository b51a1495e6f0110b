// When a system notification is raised and what it says: only while the page is hidden, only for a
// patient who opted in and whose browser granted the permission (default, denied and unsupported raise
// nothing); a message only when someone else wrote it, new and in her thread; an appointment when
// its status or the clinic's answer changes (booked, confirmed, declined, cancelled).
import {
  appointmentNotice,
  appointmentState,
  mayNotify,
  messageNotice,
  type NoticeAppointment,
  type NoticePermission,
} from '../../../src/app/system-notifications/noticeRules';

const MARIA = 'Patient/maria-1';
const CHEN = 'Practitioner/chen';
const time = (iso: string) => `at ${iso}`;

describe('whether to notify', () => {
  const permissions: NoticePermission[] = ['default', 'denied', 'granted', 'unsupported'];

  it.each(permissions)('permission %s: only granted, hidden and opted in notifies', (permission) => {
    for (const visibility of ['hidden', 'visible'] as const) {
      for (const optedIn of [true, false]) {
        expect(mayNotify({ optedIn, permission, visibility })).toBe(
          optedIn && permission === 'granted' && visibility === 'hidden',
        );
      }
    }
  });
});

describe('message notices', () => {
  const fromChen = {
    id: 'm-1',
    received: null,
    partOf: [{ reference: 'Communication/thread-1' }],
    sender: { reference: CHEN, display: 'Dr. Lily Chen' },
    payload: [{ contentString: 'Your results look good.', contentAttachment: null }],
  };

  it("someone else's new message in her thread: its sender, text and the thread to open", () => {
    expect(messageNotice(fromChen, MARIA)).toEqual({
      title: 'New message from Dr. Lily Chen',
      body: 'Your results look good.',
      tag: 'message-m-1',
      url: '/messages',
    });
  });

  it('her own message, one already received, and a thread header raise nothing', () => {
    expect(
      messageNotice({ ...fromChen, sender: { reference: MARIA, display: 'Maria' } }, MARIA),
    ).toBeUndefined();
    expect(messageNotice({ ...fromChen, received: '2026-11-20T09:00:00Z' }, MARIA)).toBeUndefined();
    expect(messageNotice({ ...fromChen, partOf: null }, MARIA)).toBeUndefined();
    expect(messageNotice({ ...fromChen, sender: null }, MARIA)).toBeUndefined();
  });

  it('a file alone is counted; a long text is shortened; no display name says "your care team"', () => {
    const files = messageNotice(
      {
        ...fromChen,
        sender: { reference: CHEN },
        payload: [{ contentAttachment: { title: 'a.pdf' } }, { contentAttachment: { title: 'b.pdf' } }],
      },
      MARIA,
    );
    expect(files).toMatchObject({ title: 'New message from your care team', body: '2 attachments' });
    const long = messageNotice({ ...fromChen, payload: [{ contentString: 'x'.repeat(500) }] }, MARIA);
    expect(long?.body).toHaveLength(140);
    expect(long?.body.endsWith('…')).toBe(true);
  });
});

describe('appointment notices', () => {
  const request: NoticeAppointment = {
    id: 'a-1',
    status: 'booked',
    start: '2026-12-07T09:00:00Z',
    participant: [
      { actor: { reference: MARIA }, status: 'accepted' },
      { actor: { reference: CHEN }, status: 'tentative' },
    ],
  };
  const accepted: NoticeAppointment = {
    ...request,
    participant: [
      { actor: { reference: MARIA }, status: 'accepted' },
      { actor: { reference: CHEN }, status: 'accepted' },
    ],
  };
  const declined: NoticeAppointment = {
    ...request,
    status: 'cancelled',
    participant: [
      { actor: { reference: MARIA }, status: 'accepted' },
      { actor: { reference: CHEN }, status: 'declined' },
    ],
  };

  it('booked, confirmed, declined and cancelled each say so, with the time and the appointment to open', () => {
    expect(appointmentNotice(request, MARIA, undefined, time)).toEqual({
      title: 'Your appointment is booked',
      body: 'at 2026-12-07T09:00:00Z',
      tag: 'appointment-a-1',
      url: '/Appointment/a-1',
    });
    const before = appointmentState(request, MARIA);
    expect(appointmentNotice(accepted, MARIA, before, time)?.title).toBe('Your appointment is confirmed');
    expect(appointmentNotice(declined, MARIA, before, time)?.title).toBe(
      'Your appointment request was declined',
    );
    const cancelled = { ...accepted, status: 'cancelled' as const };
    expect(appointmentNotice(cancelled, MARIA, appointmentState(accepted, MARIA), time)?.title).toBe(
      'Your appointment was cancelled',
    );
  });

  it('nothing when the status and answers are as last seen, or for a status she need not hear of', () => {
    expect(appointmentNotice(accepted, MARIA, appointmentState(accepted, MARIA), time)).toBeUndefined();
    expect(appointmentNotice({ ...request, status: 'proposed' }, MARIA, undefined, time)).toBeUndefined();
    expect(appointmentNotice({ ...request, id: undefined }, MARIA, undefined, time)).toBeUndefined();
  });
});
