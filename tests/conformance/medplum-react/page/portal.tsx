// A patient portal built only from @medplum/react's components and MedplumClient calls, as Medplum's
// own patient portal is: health record (SearchControl on her DiagnosticReports), a lab result
// (DiagnosticReportDisplay), messages (ThreadChat on her thread), profile (ResourceForm on her
// Patient), booking (Scheduler fed by Schedule/{id}/$find, booking with Appointment/$book) and sign
// out. The signed-in profile is the patient; the server limits every search to her compartment.
import { getReferenceString, normalizeErrorString, Operator, type SearchRequest } from '@medplum/core';
import type { Appointment, Bundle, Parameters, Period, Resource, Slot } from '@medplum/fhirtypes';
import {
  DiagnosticReportDisplay,
  Loading,
  ResourceForm,
  Scheduler,
  SearchControl,
  ThreadChat,
  useMedplum,
  useMedplumProfile,
  useSearchOne,
} from '@medplum/react';
import { useCallback, useState, type JSX } from 'react';

type View =
  | { kind: 'record' }
  | { kind: 'report'; id: string }
  | { kind: 'messages' }
  | { kind: 'profile' }
  | { kind: 'book' };

function HealthRecord({
  patient,
  open,
}: {
  readonly patient: string;
  readonly open: (id: string) => void;
}): JSX.Element {
  const [search, setSearch] = useState<SearchRequest>({
    resourceType: 'DiagnosticReport',
    filters: [{ code: 'subject', operator: Operator.EQUALS, value: patient }],
    fields: ['code', 'status', 'issued'],
    sortRules: [{ code: 'issued', descending: true }],
  });
  return (
    <section aria-label="Lab results">
      <h2>Lab results</h2>
      <SearchControl
        search={search}
        onChange={(event) => setSearch(event.definition)}
        onClick={(event) => open(event.resource.id ?? '')}
        hideToolbar
      />
    </section>
  );
}

function Messages(): JSX.Element {
  // Her thread headers are the Communications that are part of nothing.
  const [thread, loading] = useSearchOne('Communication', {
    'part-of:missing': 'true',
    _sort: '-_lastUpdated',
  });
  if (loading) return <Loading />;
  return thread ? <ThreadChat thread={thread} /> : <p>No messages</p>;
}

function Profile({ patient }: { readonly patient: string }): JSX.Element {
  const medplum = useMedplum();
  const [status, setStatus] = useState('');
  const save = (resource: Resource): void => {
    setStatus('Saving');
    medplum
      .updateResource(resource)
      .then((saved) => setStatus(`Saved version ${saved.meta?.versionId ?? '?'}`))
      .catch((err: unknown) => setStatus(`Save failed: ${normalizeErrorString(err)}`));
  };
  return (
    <>
      <ResourceForm defaultValue={{ reference: patient }} onSubmit={save} />
      <p role="status" aria-label="Profile">
        {status}
      </p>
    </>
  );
}

function Booking({ patient }: { readonly patient: string }): JSX.Element {
  const medplum = useMedplum();
  const [schedule, loading] = useSearchOne('Schedule');
  const [status, setStatus] = useState('');
  const scheduleId = schedule?.id;
  // The Scheduler asks for a month at a time; $find answers the free times in it.
  const fetchSlots = useCallback(
    async (period: Period): Promise<Slot[]> => {
      if (!scheduleId || !period.start || !period.end) return [];
      const query = new URLSearchParams({ start: period.start, end: period.end, _count: '1000' });
      const url = `${medplum.fhirUrl('Schedule', scheduleId, '$find').toString()}?${query}`;
      const bundle = await medplum.get<Bundle<Slot>>(url, { cache: 'no-cache' });
      return (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
    },
    [medplum, scheduleId],
  );
  const book = (slot: Slot): void => {
    setStatus('Booking');
    const parameters: Parameters = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'slot', resource: slot },
        { name: 'patient-reference', valueReference: { reference: patient } },
      ],
    };
    medplum
      .post<Bundle>(medplum.fhirUrl('Appointment', '$book'), parameters)
      .then((result) => {
        const appointment = result.entry?.find((entry) => entry.resource?.resourceType === 'Appointment')
          ?.resource as Appointment | undefined;
        setStatus(`Booked Appointment/${appointment?.id ?? '?'} at ${appointment?.start ?? '?'}`);
      })
      .catch((err: unknown) => setStatus(`Booking failed: ${normalizeErrorString(err)}`));
  };
  if (loading) return <Loading />;
  if (!schedule) return <p>No schedule</p>;
  return (
    <>
      <Scheduler schedule={schedule} fetchSlots={fetchSlots} onSelectSlot={book} />
      <p role="status" aria-label="Booking">
        {status}
      </p>
    </>
  );
}

export function PortalPage(): JSX.Element {
  const medplum = useMedplum();
  const profile = useMedplumProfile();
  const [view, setView] = useState<View>({ kind: 'record' });
  const patient = profile && getReferenceString(profile);
  if (!patient) return <Loading />;
  const links: [View['kind'], string][] = [
    ['record', 'Health record'],
    ['messages', 'Messages'],
    ['profile', 'Profile'],
    ['book', 'Book a visit'],
  ];
  return (
    <>
      <nav aria-label="Portal">
        {links.map(([kind, label]) => (
          <button key={kind} type="button" onClick={() => setView({ kind } as View)}>
            {label}
          </button>
        ))}
        <button type="button" onClick={() => medplum.signOut().catch(console.error)}>
          Sign out
        </button>
      </nav>
      {view.kind === 'record' && (
        <HealthRecord patient={patient} open={(id) => setView({ kind: 'report', id })} />
      )}
      {view.kind === 'report' && (
        <DiagnosticReportDisplay value={{ reference: `DiagnosticReport/${view.id}` }} />
      )}
      {view.kind === 'messages' && <Messages />}
      {view.kind === 'profile' && <Profile patient={patient} />}
      {view.kind === 'book' && <Booking patient={patient} />}
    </>
  );
}
