// System notifications' strings in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../i18n/catalog';
import type { noticeStrings } from './strings';

export default {
  'notice.message': 'Nuevo mensaje de {name}',
  'notice.message.team': 'Nuevo mensaje de su equipo de atención',
  'notice.files': '{count, plural, one {# archivo adjunto} other {# archivos adjuntos}}',
  'notice.appt.declined': 'Se rechazó su solicitud de cita',
  'notice.appt.cancelled': 'Se canceló su cita',
  'notice.appt.confirmed': 'Su cita está confirmada',
  'notice.appt.booked': 'Su cita está reservada',
} satisfies Translations<typeof noticeStrings>;
