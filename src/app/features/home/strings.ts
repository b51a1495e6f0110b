// Home's messages: ids under "home.", English defaults here, Spanish in strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const homeStrings = {
  title: { id: 'home.title', message: 'Home · Bloom' },
  greeting: { id: 'home.greeting', message: 'Hello {name}' },
  greetingNoName: { id: 'home.greeting.noName', message: 'Hello' },
  intro: {
    id: 'home.intro',
    message: 'Your care team is here for you. Questions about your pregnancy? Send us a message.',
  },
  sendMessage: { id: 'home.sendMessage', message: 'Send Message' },
  loading: { id: 'home.summary.loading', message: 'Loading your summary' },
  pregnancyTitle: { id: 'home.pregnancy.title', message: 'Your pregnancy' },
  pregnancyProgress: {
    id: 'home.pregnancy.progress',
    message:
      '{weeks, plural, one {# week} other {# weeks}} {days, plural, one {# day} other {# days}} · trimester {trimester}',
  },
  dueDate: { id: 'home.pregnancy.dueDate', message: 'Due date:' },
  fromLastPeriod: {
    id: 'home.pregnancy.fromLastPeriod',
    message: '(from the first day of your last period)',
  },
  timeline: { id: 'home.pregnancy.timeline', message: 'Your pregnancy timeline' },
  nextStepTitle: { id: 'home.nextStep.title', message: 'Next step' },
  nextStepFrom: { id: 'home.nextStep.from', message: 'From' },
  careStep: { id: 'home.nextStep.fallback', message: 'Care step' },
  nextStepTo: { id: 'home.nextStep.to', message: 'to' },
  answerQuestionnaire: { id: 'home.nextStep.answer', message: 'Answer the questionnaire' },
  seeCarePlan: { id: 'home.nextStep.carePlan', message: 'See your care plan' },
  nextAppointment: { id: 'home.nextAppointment.title', message: 'Next appointment' },
  nextVaccine: { id: 'home.nextVaccine.title', message: 'Next vaccine' },
  vaccine: { id: 'home.nextVaccine.fallback', message: 'Vaccine' },
  stagesHeading: { id: 'home.stages.heading', message: 'Your pregnancy, stage by stage' },
  firstTrimester: { id: 'home.stages.first.title', message: 'First trimester' },
  firstTrimesterText: {
    id: 'home.stages.first.text',
    message: 'Weeks 1 to 13: early changes, first visits and tests.',
  },
  secondTrimester: { id: 'home.stages.second.title', message: 'Second trimester' },
  secondTrimesterText: {
    id: 'home.stages.second.text',
    message: 'Weeks 14 to 27: feeling movement, the anatomy scan, glucose screening.',
  },
  thirdTrimester: { id: 'home.stages.third.title', message: 'Third trimester' },
  thirdTrimesterText: {
    id: 'home.stages.third.text',
    message: 'Weeks 28 to 40: counting kicks, preparing for birth.',
  },
  labor: { id: 'home.stages.labor.title', message: 'Labor and delivery' },
  laborText: {
    id: 'home.stages.labor.text',
    message: 'Signs of labor, when to call, and what happens at birth.',
  },
  opensNewTab: { id: 'home.stages.newTab', message: '(opens in a new tab)' },
  unknownDueDate: { id: 'home.unknownDueDate.heading', message: "We don't know your due date yet." },
  unknownDueDateBefore: {
    id: 'home.unknownDueDate.before',
    message: 'Your care team sets it at your dating visit:',
  },
  unknownDueDateAsk: { id: 'home.unknownDueDate.ask', message: 'ask them' },
  unknownDueDateAfter: {
    id: 'home.unknownDueDate.after',
    message: '. Or enter the first day of your last period and we will work it out.',
  },
  lastPeriodForm: { id: 'home.lastPeriod.form', message: 'Last period' },
  lastPeriodLabel: { id: 'home.lastPeriod.label', message: 'First day of last period' },
  workOut: { id: 'home.lastPeriod.submit', message: 'Work out my due date' },
  dateFormat: { id: 'home.lastPeriod.dateFormat', message: 'Enter the date as day, month and year.' },
  dateInFuture: { id: 'home.lastPeriod.dateInFuture', message: 'The date cannot be in the future.' },
  dateTooOld: {
    id: 'home.lastPeriod.dateTooOld',
    message: 'That is more than 42 weeks ago. Please check the date.',
  },
  saveFailed: { id: 'home.lastPeriod.saveFailed', message: 'Could not save the date.' },
} as const satisfies Messages;
