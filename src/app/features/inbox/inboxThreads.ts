// The care team's inbox rows: one per thread header she can read, with its patient, topic, newest
// message and how many of its messages from others she has not marked received (read receipts are
// set when she reads the thread in the patient's chart).
import type { InboxThreadsQuery } from '../../../graphql';

export interface InboxRow {
  readonly id: string;
  readonly patientId: string | undefined;
  readonly patientName: string;
  readonly topic: string;
  readonly preview: string;
  readonly sent: string | undefined;
  readonly unread: number;
  /** An alert raised to the care team (e.g. a positive EPDS screen): priority urgent, asap or stat. */
  readonly urgent: boolean;
}

type Header = NonNullable<NonNullable<InboxThreadsQuery['CommunicationList']>[number]>;

function nameOf(subject: Header['subject']): string {
  const resource = subject?.resource && 'name' in subject.resource ? subject.resource : undefined;
  const first = resource?.name?.find((n) => n?.given?.length || n?.family);
  const parts = [...(first?.given ?? []), first?.family].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(' ') : (subject?.display ?? 'Unknown patient');
}

/** `reader`: her own reference; her messages are never unread to her. */
export function inboxRows(data: InboxThreadsQuery | undefined, reader: string): InboxRow[] {
  return (data?.CommunicationList ?? []).flatMap((header): InboxRow[] => {
    if (!header?.id) return [];
    const reference = header.subject?.reference ?? '';
    const newest = header.newest?.[0];
    // A header that carries its own text (an alert from a bot) previews it until a message follows.
    const text =
      newest?.payload?.find((p) => p?.contentString)?.contentString ??
      header.payload?.find((p) => p?.contentString)?.contentString;
    return [
      {
        id: header.id,
        patientId: reference.startsWith('Patient/') ? reference.slice('Patient/'.length) : undefined,
        patientName: nameOf(header.subject),
        topic: header.topic?.text ?? 'Messages',
        preview: text ?? (newest ? 'Attachment' : 'No messages yet'),
        urgent: header.priority === 'urgent' || header.priority === 'asap' || header.priority === 'stat',
        sent: newest?.sent ?? header.sent ?? undefined,
        unread: (header.unread ?? []).filter((m) => m?.sender?.reference && m.sender.reference !== reader)
          .length,
      },
    ];
  });
}
