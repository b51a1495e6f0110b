// The landing page's messages: ids under "landing.", English defaults here, Spanish in strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const landingStrings = {
  title: { id: 'landing.title', message: 'Bloom · Pregnancy care in one place' },
  overline: { id: 'landing.overline', message: 'Pregnancy care' },
  heading: { id: 'landing.heading', message: 'Care that grows with you' },
  intro: {
    id: 'landing.intro',
    message:
      'Bloom keeps your pregnancy in one calm place: lab results, vitals, vaccines and appointments, with your care team one message away.',
  },
  signUp: { id: 'landing.signUp', message: 'Sign up' },
  logIn: { id: 'landing.logIn', message: 'Log in' },
  heroAlt: {
    id: 'landing.heroAlt',
    message: 'Illustration of a pink flower in full bloom beside a young sprout and a bud, under a warm sun',
  },
  featuresTitle: { id: 'landing.features.title', message: 'Everything for the months ahead' },
  recordTitle: { id: 'landing.features.record.title', message: 'Your health record' },
  recordText: {
    id: 'landing.features.record.text',
    message: 'Lab results with reference ranges, medications, vaccines and vitals, explained in plain words.',
  },
  messagesTitle: { id: 'landing.features.messages.title', message: 'Messages with your care team' },
  messagesText: {
    id: 'landing.features.messages.text',
    message: 'Ask a question between visits and keep the whole conversation in one thread.',
  },
  appointmentsTitle: { id: 'landing.features.appointments.title', message: 'Appointments that fit' },
  appointmentsText: {
    id: 'landing.features.appointments.text',
    message: 'Pick a day and time that works for you and send a request in a few taps.',
  },
  language: { id: 'landing.language', message: 'Language' },
} as const satisfies Messages;
