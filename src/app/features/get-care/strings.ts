// Get Care's strings (appointment request, slot calendar, appointment lists): ids under "care.",
// English here, Spanish in strings.es.ts. Dates and times come from Intl in the active language.
import type { Messages } from '../../i18n/catalog';

export const getCareStrings = {
  title: { id: 'care.title', message: 'Get Care · Bloom' },
  heading: { id: 'care.heading', message: 'Get Care' },
  loading: { id: 'care.loading', message: 'Loading appointments' },
  request: { id: 'care.request', message: 'Request an appointment' },
  noSchedule: { id: 'care.noSchedule', message: 'The clinic offers no appointment times at the moment.' },
  noneInMonth: { id: 'care.noneInMonth', message: 'No free times in {month}. Try the next month.' },
  disabledDays: { id: 'care.disabledDays', message: 'Days you cannot choose have no free times.' },
  noneOnDay: { id: 'care.noneOnDay', message: 'No free times on {day}. Choose another day.' },
  chooseDay: { id: 'care.chooseDay', message: 'Choose a day to see its free times.' },
  selected: { id: 'care.selected', message: 'Selected Slot' },
  noneYet: { id: 'care.noneYet', message: 'None yet' },
  send: { id: 'care.send', message: 'Send Request' },
  noSlot: { id: 'care.noSlot', message: 'Please select a slot first.' },
  sent: { id: 'care.sent', message: 'Appointment request sent.' },
  failed: { id: 'care.failed', message: 'Failed to send request.' },
  upcoming: { id: 'care.upcoming', message: 'Upcoming appointments' },
  noUpcoming: { id: 'care.upcoming.none', message: 'No upcoming appointments' },
  past: { id: 'care.past', message: 'Past appointments' },
  noPast: { id: 'care.past.none', message: 'No past appointments' },
  appointment: { id: 'care.appointment', message: 'Appointment' },
  with: { id: 'care.with', message: 'with {people}' },
  timesOn: { id: 'care.timesOn', message: 'Times on {day}' },
  previousMonth: { id: 'care.cal.previous', message: 'Previous month' },
  nextMonth: { id: 'care.cal.next', message: 'Next month' },
  loadingTimes: { id: 'care.cal.loading', message: 'Loading free times' },
  dayFree: {
    id: 'care.cal.day',
    message: '{date}, {count, plural, =0 {no free times} one {# free time} other {# free times}}',
  },
  horizon: {
    id: 'care.today.horizon',
    message:
      "Same-day appointments can't be booked online: the clinic takes requests from {date}. If you need care today, send your care team a message.",
  },
  noneToday: {
    id: 'care.today.none',
    message: 'There are no free times left today. If you need care today, send your care team a message.',
  },
} as const satisfies Messages;
