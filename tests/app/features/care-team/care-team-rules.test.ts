// The care-team screens' rules (SPEC §2 roles, §6): the patient list's facts (gestational week from the
// due date, unread messages sent by the patient, the newest critical result: AA, LL, HH, A), the answer
// to an appointment request as one transaction (accept: her participation accepted, the visit booked;
// decline: cancelled with the reason, her participation declined, Slots freed; the patient told in
// her thread; listed only while her own participation is tentative), the read receipts, the inbox's unread counts and the navigation per role.
import type { Appointment, Slot } from '@medplum/fhirtypes';
import type {
  AppointmentRequestFieldsFragment,
  CareTeamHomeQuery,
  InboxThreadsQuery,
} from '../../../../src/graphql';
import { requestItems } from '../../../../src/app/features/care-team/AppointmentRequests';
import {
  DECISION_ERRORS,
  decidedAppointment,
  decisionBundle,
  reasonProblem,
} from '../../../../src/app/features/care-team/appointmentDecision';
import { gestationalWeek, patientRows } from '../../../../src/app/features/care-team/patientRows';
import { currentTab, isFhirId } from '../../../../src/app/features/care-team/chartTabs';
import { inboxRows } from '../../../../src/app/features/inbox/inboxThreads';
import { readReceiptBatch, unreadBy } from '../../../../src/app/features/messages/useReadReceipts';
import type { ThreadMessage } from '../../../../src/app/features/messages/threadMessages';
import { navFor, navRole } from '../../../../src/app/components/navItems';

const NOW = new Date('2026-11-27T12:00:00Z');
const CHEN = 'Practitioner/chen';

function patient(id: string, extra: Partial<NonNullable<CareTeamHomeQuery['PatientList']>[number]> = {}) {
  return {
    resourceType: 'Patient',
    id,
    name: [{ given: ['Maria'], family: 'Garcia' }],
    dueDate: [],
    nextAppointment: [],
    unread: [],
    results: [],
    ...extra,
  } as NonNullable<NonNullable<CareTeamHomeQuery['PatientList']>[number]>;
}

describe('care-team patient list', () => {
  it('gives the completed weeks from the due date, none outside a pregnancy', () => {
    expect(gestationalWeek('2026-12-29', NOW)).toBe(35);
    expect(gestationalWeek('2027-10-01', NOW)).toBeUndefined();
    expect(gestationalWeek('not a date', NOW)).toBeUndefined();
  });

  it('counts only her unread messages to the care team and picks the newest critical result', () => {
    const rows = patientRows(
      {
        PatientList: [
          patient('m1', {
            dueDate: [{ id: 'd', valueDateTime: '2026-12-29' }],
            nextAppointment: [{ id: 'a', start: '2026-12-02T10:00:00Z', status: 'booked' }],
            unread: [
              { id: '1', sender: { reference: 'Patient/m1' } },
              { id: '2', sender: { reference: CHEN } },
              { id: '3', sender: { reference: 'Patient/m1' } },
            ],
            results: [
              {
                id: 'n',
                effectiveDateTime: '2026-11-26',
                code: { text: 'Glucose' },
                interpretation: [{ text: 'Normal', coding: [{ code: 'N' }] }],
              },
              {
                id: 'c',
                effectiveDateTime: '2026-11-25',
                code: { text: 'GBS' },
                interpretation: [{ text: 'Critical abnormal', coding: [{ code: 'AA' }] }],
              },
              {
                id: 'o',
                effectiveDateTime: '2026-11-01',
                code: { text: 'Protein' },
                interpretation: [{ text: 'Abnormal', coding: [{ code: 'A' }] }],
              },
            ],
          }),
          patient('a2', { name: [{ given: ['Aisha'], family: 'Khan' }] }),
        ],
        requests: [],
      } as unknown as CareTeamHomeQuery,
      NOW,
    );
    expect(rows[0]).toEqual({
      id: 'm1',
      name: 'Maria Garcia',
      week: 35,
      dueDate: '2026-12-29',
      nextAppointment: '2026-12-02T10:00:00Z',
      unread: 2,
      critical: { text: 'GBS: Critical abnormal', date: '2026-11-25' },
    });
    expect(rows[1]).toMatchObject({ name: 'Aisha Khan', week: undefined, unread: 0, critical: undefined });
  });
});

describe('answering an appointment request', () => {
  const appointment: Appointment = {
    resourceType: 'Appointment',
    id: 'ap1',
    meta: { versionId: '3' },
    status: 'booked',
    start: '2026-12-07T09:00:00Z',
    slot: [{ reference: 'Slot/s1' }],
    participant: [
      { actor: { reference: CHEN }, status: 'tentative', required: 'required' },
      { actor: { reference: 'Patient/m1' }, status: 'accepted', required: 'required' },
    ],
  };
  const slot: Slot = {
    resourceType: 'Slot',
    id: 's1',
    schedule: { reference: 'Schedule/x' },
    status: 'busy',
    start: '2026-12-07T09:00:00Z',
    end: '2026-12-07T09:30:00Z',
  };
  const input = {
    appointment,
    practitioner: CHEN,
    patient: 'Patient/m1',
    threadId: 't1',
    now: NOW,
    when: 'Monday, December 7',
  };

  it('accepts: only her participation changes, the visit stays booked; the patient is told in her thread', () => {
    const bundle = decisionBundle({ ...input, decision: { kind: 'accept' } }, [slot]);
    expect(bundle.type).toBe('transaction');
    const [put, message, touch, ...rest] = bundle.entry ?? [];
    expect(rest).toEqual([]);
    expect(put.request).toEqual({ method: 'PUT', url: 'Appointment/ap1', ifMatch: 'W/"3"' });
    const updated = put.resource as Appointment;
    expect(updated.status).toBe('booked');
    expect(updated.participant?.map((p) => p.status)).toEqual(['accepted', 'accepted']);
    expect(message.resource).toMatchObject({
      resourceType: 'Communication',
      partOf: [{ reference: 'Communication/t1' }],
      subject: { reference: 'Patient/m1' },
      sender: { reference: CHEN },
      recipient: [{ reference: 'Patient/m1' }],
      about: [{ reference: 'Appointment/ap1' }],
      payload: [{ contentString: 'Your appointment on Monday, December 7 is confirmed. See you then.' }],
    });
    expect(touch.request).toEqual({ method: 'PATCH', url: 'Communication/t1' });
    expect(JSON.parse(atob((touch.resource as { data: string }).data))).toEqual([
      { op: 'add', path: '/sent', value: NOW.toISOString() },
    ]);
  });

  it('declines with the reason: cancelled, her participation declined, the Slot free again', () => {
    const bundle = decisionBundle(
      { ...input, decision: { kind: 'decline', reason: ' Clinic closed that day ' } },
      [slot],
    );
    const updated = bundle.entry?.[0].resource as Appointment;
    expect(updated).toMatchObject({
      status: 'cancelled',
      cancelationReason: { text: 'Clinic closed that day' },
    });
    expect(updated.participant?.map((p) => p.status)).toEqual(['declined', 'accepted']);
    expect(bundle.entry?.[1].resource).toMatchObject({
      payload: [
        {
          contentString:
            'Your appointment request for Monday, December 7 was declined: Clinic closed that day',
        },
      ],
    });
    expect(bundle.entry?.[3]).toEqual({
      request: { method: 'PUT', url: 'Slot/s1' },
      resource: { ...slot, status: 'free' },
    });
  });

  it('refuses a decline without a reason or with a letter', () => {
    expect(reasonProblem('   ')).toBe(DECISION_ERRORS.noReason);
    expect(reasonProblem('x'.repeat(501))).toBe(DECISION_ERRORS.tooLong);
    expect(reasonProblem('Fully booked')).toBeUndefined();
  });

  it('leaves other participants as they were', () => {
    const other = decidedAppointment(appointment, 'Practitioner/someone-else', { kind: 'accept' });
    expect(other.participant?.map((p) => p.status)).toEqual(['tentative', 'accepted']);
  });

  it('lists a request only while her own participation is tentative (the Location may stay tentative)', () => {
    const withLocation = (status: 'tentative' | 'accepted' | 'declined', appointmentStatus = 'booked') =>
      ({
        ...appointment,
        status: appointmentStatus,
        participant: [
          { actor: { reference: CHEN }, status },
          { actor: { reference: 'Location/l1' }, status: 'tentative' },
          { actor: { reference: 'Patient/m1', display: 'Maria Garcia' }, status: 'accepted' },
        ],
      }) as unknown as AppointmentRequestFieldsFragment;
    expect(requestItems([withLocation('tentative')], CHEN)).toEqual([
      expect.objectContaining({ id: 'ap1', patient: 'Patient/m1', patientName: 'Maria Garcia' }),
    ]);
    expect(requestItems([withLocation('accepted')], CHEN)).toEqual([]);
    expect(requestItems([withLocation('declined', 'cancelled')], CHEN)).toEqual([]);
    expect(requestItems([withLocation('tentative')], 'Practitioner/someone-else')).toEqual([]);
  });
});

describe('read receipts and the inbox', () => {
  const messages = [
    { id: 'a', received: null, sender: { reference: 'Patient/m1' } },
    { id: 'b', received: '2026-11-27T10:00:00Z', sender: { reference: 'Patient/m1' } },
    { id: 'c', received: null, sender: { reference: CHEN } },
  ] as unknown as ThreadMessage[];

  it('marks only the unread messages of others, in one batch of JSON Patches', () => {
    expect(unreadBy(CHEN, messages)).toEqual(['a']);
    const batch = readReceiptBatch(['a'], NOW.toISOString());
    expect(batch.entry?.[0].request).toEqual({ method: 'PATCH', url: 'Communication/a' });
    expect(JSON.parse(atob((batch.entry?.[0].resource as { data: string }).data))).toEqual([
      { op: 'add', path: '/received', value: NOW.toISOString() },
    ]);
  });

  it('counts a thread’s unread messages not sent by the reader and links its patient', () => {
    const rows = inboxRows(
      {
        CommunicationList: [
          {
            resourceType: 'Communication',
            id: 't1',
            sent: '2026-11-27T10:00:00Z',
            topic: { text: 'Questions for Dr. Chen' },
            subject: {
              reference: 'Patient/m1',
              display: 'Maria Garcia',
              resource: { resourceType: 'Patient', id: 'm1', name: [{ given: ['Maria'], family: 'Garcia' }] },
            },
            newest: [
              {
                id: 'x',
                sent: '2026-11-27T10:00:00Z',
                sender: { reference: 'Patient/m1', display: null },
                payload: [{ contentString: 'Hello' }],
              },
            ],
            unread: [
              { id: 'x', sender: { reference: 'Patient/m1' } },
              { id: 'y', sender: { reference: CHEN } },
            ],
          },
        ],
      } as unknown as InboxThreadsQuery,
      CHEN,
    );
    expect(rows).toEqual([
      {
        id: 't1',
        patientId: 'm1',
        patientName: 'Maria Garcia',
        topic: 'Questions for Dr. Chen',
        preview: 'Hello',
        sent: '2026-11-27T10:00:00Z',
        unread: 1,
        urgent: false,
      },
    ]);
  });

  it('shows an alert header (priority urgent, no messages) as urgent with its own text as preview', () => {
    const rows = inboxRows(
      {
        CommunicationList: [
          {
            resourceType: 'Communication',
            id: 'a1',
            sent: '2026-11-27T11:00:00Z',
            priority: 'urgent',
            payload: [{ contentString: "Maria Garcia's Edinburgh Postnatal Depression Scale total is 14" }],
            topic: { text: 'Mood screening alert: EPDS 14' },
            subject: { reference: 'Patient/m1', display: 'Maria Garcia', resource: null },
            newest: [],
            unread: [],
          },
        ],
      } as unknown as InboxThreadsQuery,
      CHEN,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        id: 'a1',
        topic: 'Mood screening alert: EPDS 14',
        preview: "Maria Garcia's Edinburgh Postnatal Depression Scale total is 14",
        urgent: true,
        unread: 0,
      }),
    ]);
  });
});

describe('navigation and chart routes per role', () => {
  it('gives a patient her screens, the care team patients, inbox and the record search, an admin administration too', () => {
    expect(navFor(navRole('Patient', false)).links.map((l) => l.label.message)).toEqual([
      'Health Record',
      'Messages',
      'Get Care',
      'Forms',
    ]);
    const staff = navFor(navRole('Practitioner', false));
    expect(staff.links.map((l) => l.to)).toEqual(['/', '/inbox']);
    expect(staff.groups.map((g) => g.label.message)).toEqual(['Records']);
    expect(staff.groups[0].items.map((i) => i.to)).toEqual(
      expect.arrayContaining([
        '/Patient',
        '/Observation',
        '/DiagnosticReport',
        '/Communication',
        '/Appointment',
      ]),
    );
    const admin = navFor(navRole('Practitioner', true));
    expect(admin.groups[1].items.map((i) => i.to)).toEqual([
      '/ProjectMembership',
      '/AccessPolicy',
      '/Bot',
      '/ClientApplication',
      '/admin/invite',
    ]);
  });

  it('reads the chart tab from the path and refuses ids that are not FHIR ids', () => {
    expect(currentTab('health-record/lab-results/r1')?.label).toBe('Lab results');
    expect(currentTab('messages')?.label).toBe('Messages');
    expect(currentTab('elsewhere')).toBeUndefined();
    expect(isFhirId('m-1.a')).toBe(true);
    expect(isFhirId('../x')).toBe(false);
    expect(isFhirId(undefined)).toBe(false);
  });
});
