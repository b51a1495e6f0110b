// System notifications' strings: ids under "notice.", English here, Spanish in strings.es.ts.
import type { Messages } from '../i18n/catalog';

export const noticeStrings = {
  messageFrom: { id: 'notice.message', message: 'New message from {name}' },
  messageFromTeam: { id: 'notice.message.team', message: 'New message from your care team' },
  attachments: { id: 'notice.files', message: '{count, plural, one {# attachment} other {# attachments}}' },
  declined: { id: 'notice.appt.declined', message: 'Your appointment request was declined' },
  cancelled: { id: 'notice.appt.cancelled', message: 'Your appointment was cancelled' },
  confirmed: { id: 'notice.appt.confirmed', message: 'Your appointment is confirmed' },
  booked: { id: 'notice.appt.booked', message: 'Your appointment is booked' },
} as const satisfies Messages;
