// The pregnancy journey's messages (timeline, care-plan steps): ids under "journey.", Spanish in
// strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const journeyStrings = {
  title: { id: 'journey.title', message: 'Your pregnancy' },
  loading: { id: 'journey.loading', message: 'Loading your pregnancy' },
  thisWeek: { id: 'journey.thisWeek', message: 'This week' },
  week: { id: 'journey.week', message: 'Week {week} · {trimester}' },
  trimester1: { id: 'journey.trimester.1', message: 'first trimester' },
  trimester2: { id: 'journey.trimester.2', message: 'second trimester' },
  trimester3: { id: 'journey.trimester.3', message: 'third trimester' },
  progress: {
    id: 'journey.progress',
    message:
      '{weeks, plural, one {# week} other {# weeks}} {days, plural, one {# day} other {# days}}. Due date:',
  },
  fromLastPeriod: { id: 'journey.fromLastPeriod', message: '(from the first day of your last period)' },
  countKicks: { id: 'journey.countKicks', message: "Count your baby's kicks" },
  noDueDate: {
    id: 'journey.noDueDate',
    message:
      "We don't know your due date yet. Ask your care team, or enter the first day of your last period on your",
  },
  homePage: { id: 'journey.homePage', message: 'home page' },
  carePlan: { id: 'journey.carePlan', message: 'Your care plan' },
  noCarePlan: { id: 'journey.carePlan.none', message: 'Your care team has not set up your care plan yet.' },
  careStep: { id: 'journey.step.fallback', message: 'Care step' },
  to: { id: 'journey.step.to', message: 'to' },
  overdue: {
    id: 'journey.step.overdue',
    message: 'Its usual time has passed: ask your care team when to have it.',
  },
  answer: { id: 'journey.step.answer', message: 'Answer the questionnaire' },
  seeVaccine: { id: 'journey.outcome.vaccine', message: 'See the vaccine' },
  seeResult: { id: 'journey.outcome.result', message: 'See the result' },
  seeAnswers: { id: 'journey.outcome.answers', message: 'See your answers' },
  visitAttended: { id: 'journey.outcome.visit', message: 'Visit attended' },
  recorded: { id: 'journey.outcome.recorded', message: 'Recorded by your care team' },
  stage0: {
    id: 'journey.stage.0',
    message:
      "Your baby's heart, brain and spine are forming. Tiredness and feeling sick are common now and usually ease by week 14.",
  },
  stage14: {
    id: 'journey.stage.14',
    message:
      'Many people feel more energy in these weeks. Your bump starts to show, and the anatomy scan checks how your baby is growing.',
  },
  stage20: {
    id: 'journey.stage.20',
    message:
      'You may start to feel your baby move. Your baby is growing fast and can hear sounds from outside.',
  },
  stage28: {
    id: 'journey.stage.28',
    message:
      "Your baby is gaining weight and moves often; tell your care team at once if the movements slow down or change. It's time for the whooping cough vaccine.",
  },
  stage37: {
    id: 'journey.stage.37',
    message:
      'Your baby could arrive any day now. Keep your bag packed, and call your care team if your waters break, you bleed, or the movements change.',
  },
  questionnaire: { id: 'journey.questionnaire.title', message: 'Questionnaire' },
  opening: { id: 'journey.questionnaire.opening', message: 'Opening the questionnaire' },
  unavailable: {
    id: 'journey.questionnaire.unavailable',
    message: 'This questionnaire is not available. Please ask your care team.',
  },
  backToPlan: { id: 'journey.questionnaire.back', message: 'Back to your care plan' },
} as const satisfies Messages;
