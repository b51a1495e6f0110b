// The kick count's messages (counter, history, chart): ids under "kicks.", Spanish in strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const kickCountStrings = {
  title: { id: 'kicks.title', message: "Count your baby's kicks" },
  loading: { id: 'kicks.loading', message: 'Loading your kick counts' },
  howTo: {
    id: 'kicks.howTo',
    message:
      'Once a day, when your baby is usually active, sit or lie on your side and tap the button each time you feel a movement: a kick, a roll or a flutter. Most babies make {goal} movements well within 2 hours.',
  },
  startsAt: {
    id: 'kicks.startsAt',
    message:
      'Kick counting starts at {from} weeks. You are {weeks, plural, one {# week} other {# weeks}} pregnant.',
  },
  startsAtNoDueDate: {
    id: 'kicks.startsAt.noDueDate',
    message: "Kick counting starts at {from} weeks. We don't know your due date yet: ask your care team.",
  },
  weekByWeek: { id: 'kicks.weekByWeek', message: 'See your pregnancy week by week' },
  start: { id: 'kicks.start', message: 'Start counting' },
  progress: { id: 'kicks.progress', message: '{movements} of {goal} movements · {minutes} min' },
  movement: { id: 'kicks.movement', message: 'I felt a movement' },
  stop: { id: 'kicks.stop', message: 'Stop and save' },
  saving: { id: 'kicks.saving', message: 'Saving your count…' },
  notSaved: { id: 'kicks.notSaved', message: '{summary}: not saved yet.' },
  saveFailed: { id: 'kicks.saveFailed', message: 'The count could not be saved.' },
  tryAgain: { id: 'kicks.tryAgain', message: 'Try again' },
  saved: { id: 'kicks.saved', message: 'Saved: {summary}.' },
  movingWell: { id: 'kicks.movingWell', message: 'Your baby is moving well.' },
  stoppedEarly: { id: 'kicks.stoppedEarly', message: 'You stopped before {goal} movements' },
  fewer: { id: 'kicks.fewer', message: 'Fewer than {goal} movements in 2 hours' },
  callNow: {
    id: 'kicks.callNow',
    message: 'If your baby is moving less than usual, do not wait until tomorrow: call',
  },
  now: { id: 'kicks.now', message: 'now.' },
  cannotReach: {
    id: 'kicks.cannotReach',
    message: 'If you cannot reach them, or you think something is wrong, call',
  },
  again: { id: 'kicks.again', message: 'Count again' },
  summary: {
    id: 'kicks.summary',
    message:
      '{movements, plural, one {# movement} other {# movements}} in {minutes, plural, one {# minute} other {# minutes}}',
  },
  history: { id: 'kicks.history', message: 'Your recent counts' },
  noCounts: { id: 'kicks.history.none', message: 'No counts yet. Your counts will show here.' },
  chart: { id: 'kicks.chart', message: 'Minutes to count movements, oldest to newest: {minutes}' },
  low: { id: 'kicks.low', message: 'low count' },
} as const satisfies Messages;
