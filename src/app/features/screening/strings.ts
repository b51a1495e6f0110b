// The screening message's strings (after the EPDS): ids under "screening.", Spanish in strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const screeningStrings = {
  title: { id: 'screening.title', message: 'Thank you for your answers' },
  saving: { id: 'screening.saving', message: 'Saving your answers' },
  alertIntro: {
    id: 'screening.alert.intro',
    message:
      'Thank you for telling us how you have been feeling. Many people feel this way during pregnancy and after a baby, and help works. Your care team has been told, and someone will contact you.',
  },
  whoToContact: { id: 'screening.alert.whoToContact', message: 'Who to contact now' },
  callClinic: { id: 'screening.alert.callClinic', message: 'Please call' },
  callClinicAfter: { id: 'screening.alert.callClinicAfter', message: 'today to talk with your care team.' },
  selfHarm: {
    id: 'screening.alert.selfHarm',
    message: 'If you have thoughts of harming yourself, you do not have to wait: call or text',
  },
  crisisLine: { id: 'screening.alert.crisisLine', message: '(Suicide & Crisis Lifeline) any time.' },
  emergency: {
    id: 'screening.alert.emergency',
    message: 'If you feel you might harm yourself or are in danger now, call',
  },
  thanks: {
    id: 'screening.thanks',
    message:
      'Your answers are saved and your care team will go through them with you. If you would like to talk sooner, call',
  },
  back: { id: 'screening.back', message: 'Back to forms' },
} as const satisfies Messages;
