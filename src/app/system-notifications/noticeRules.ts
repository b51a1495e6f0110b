// When the app raises a system notification and what it says: only while the page is hidden (she is
// elsewhere: the screen itself shows what changed when she looks), only when she opted in and the
// browser granted the permission; a message only when someone else wrote it, new (not yet received)
// and in a thread; an appointment when its status or answers change (booked, confirmed, declined,
// cancelled). Each notice names where a click takes her, and speaks the app's active language.
import { translate } from '../i18n/i18n';
import { noticeStrings as s } from './strings';

export type NoticePermission = NotificationPermission | 'unsupported';

export interface NoticeConditions {
  readonly optedIn: boolean;
  readonly permission: NoticePermission;
  readonly visibility: DocumentVisibilityState;
}

export function mayNotify({ optedIn, permission, visibility }: NoticeConditions): boolean {
  return optedIn && permission === 'granted' && visibility === 'hidden';
}

export interface SystemNotice {
  readonly title: string;
  readonly body: string;
  /** One notification per message or appointment: a later one replaces it. */
  readonly tag: string;
  /** The app path a click opens. */
  readonly url: string;
}

/** What a notice needs of a live message (the messages screen's MessageFields have it). */
export interface NoticeMessage {
  readonly id?: string | null;
  readonly received?: string | null;
  readonly partOf?: ReadonlyArray<{ readonly reference?: string | null } | null> | null;
  readonly sender?: { readonly reference?: string | null; readonly display?: string | null } | null;
  readonly payload?: ReadonlyArray<{
    readonly contentString?: string | null;
    readonly contentAttachment?: { readonly title?: string | null } | null;
  } | null> | null;
}

/** Longest text shown in a notification; the thread has the rest. */
const MAX_BODY = 140;

function shortened(text: string): string {
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY - 1)}…` : text;
}

/** The notice for a new message from someone else to `viewer`, or undefined when there is none. */
export function messageNotice(message: NoticeMessage, viewer: string): SystemNotice | undefined {
  const inThread = (message.partOf ?? []).some((part) => part?.reference);
  if (!message.id || !inThread || message.received) return undefined;
  if (!message.sender?.reference || message.sender.reference === viewer) return undefined;
  const parts = (message.payload ?? []).flatMap((part) => (part ? [part] : []));
  const text = parts.map((part) => part.contentString ?? '').find(Boolean);
  const files = parts.filter((part) => part.contentAttachment).length;
  const body = text ? shortened(text) : files > 0 ? translate(s.attachments, { count: files }) : '';
  return {
    title: message.sender.display
      ? translate(s.messageFrom, { name: message.sender.display })
      : translate(s.messageFromTeam),
    body,
    tag: `message-${message.id}`,
    url: '/messages',
  };
}

/** What a notice needs of a live Appointment (AppointmentNoticeChanged selects it). */
export interface NoticeAppointment {
  readonly id?: string | null;
  readonly status?: string | null;
  readonly start?: string | null;
  readonly participant?: ReadonlyArray<{
    readonly actor?: { readonly reference?: string | null } | null;
    readonly status?: string | null;
  } | null> | null;
}

/** What changed about an appointment that she is told of; compared to the last one seen. */
export function appointmentState(appointment: NoticeAppointment, viewer: string): string {
  const answers = (appointment.participant ?? [])
    .filter((p) => p?.actor?.reference !== viewer)
    .map((p) => p?.status ?? '')
    .sort();
  return [appointment.status ?? '', ...answers].join('|');
}

function headline(appointment: NoticeAppointment, viewer: string): string | undefined {
  const others = (appointment.participant ?? []).filter((p) => p?.actor?.reference !== viewer);
  switch (appointment.status) {
    case 'cancelled':
      return others.some((p) => p?.status === 'declined') ? translate(s.declined) : translate(s.cancelled);
    case 'booked':
      return others.length > 0 && others.every((p) => p?.status === 'accepted')
        ? translate(s.confirmed)
        : translate(s.booked);
    default:
      return undefined;
  }
}

/**
 * The notice for an appointment whose state differs from `previous` (undefined: not seen before), or
 * undefined when nothing she needs to hear of changed.
 */
export function appointmentNotice(
  appointment: NoticeAppointment,
  viewer: string,
  previous: string | undefined,
  formatTime: (iso: string) => string,
): SystemNotice | undefined {
  if (!appointment.id || appointmentState(appointment, viewer) === previous) return undefined;
  const title = headline(appointment, viewer);
  if (!title) return undefined;
  return {
    title,
    body: appointment.start ? formatTime(appointment.start) : '',
    tag: `appointment-${appointment.id}`,
    url: `/Appointment/${appointment.id}`,
  };
}
