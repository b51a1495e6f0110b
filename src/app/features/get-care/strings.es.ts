// Get Care's strings in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { getCareStrings } from './strings';

export default {
  'care.title': 'Solicitar atención · Bloom',
  'care.heading': 'Solicitar atención',
  'care.loading': 'Cargando citas',
  'care.request': 'Pedir una cita',
  'care.noSchedule': 'La clínica no ofrece horarios de cita en este momento.',
  'care.noneInMonth': 'No hay horarios libres en {month}. Pruebe el mes siguiente.',
  'care.disabledDays': 'Los días que no puede elegir no tienen horarios libres.',
  'care.noneOnDay': 'No hay horarios libres el {day}. Elija otro día.',
  'care.chooseDay': 'Elija un día para ver sus horarios libres.',
  'care.selected': 'Horario elegido',
  'care.noneYet': 'Ninguno todavía',
  'care.send': 'Enviar solicitud',
  'care.noSlot': 'Primero elija un horario.',
  'care.sent': 'Solicitud de cita enviada.',
  'care.failed': 'No se pudo enviar la solicitud.',
  'care.upcoming': 'Próximas citas',
  'care.upcoming.none': 'No tiene próximas citas',
  'care.past': 'Citas anteriores',
  'care.past.none': 'No tiene citas anteriores',
  'care.appointment': 'Cita',
  'care.with': 'con {people}',
  'care.timesOn': 'Horarios del {day}',
  'care.cal.previous': 'Mes anterior',
  'care.cal.next': 'Mes siguiente',
  'care.cal.loading': 'Cargando horarios libres',
  'care.cal.day':
    '{date}, {count, plural, =0 {sin horarios libres} one {# horario libre} other {# horarios libres}}',
  'care.today.horizon':
    'No se pueden reservar citas para el mismo día en línea: la clínica recibe solicitudes desde el {date}. Si necesita atención hoy, envíe un mensaje a su equipo de atención.',
  'care.today.none':
    'Ya no quedan horarios libres hoy. Si necesita atención hoy, envíe un mensaje a su equipo de atención.',
} satisfies Translations<typeof getCareStrings>;
