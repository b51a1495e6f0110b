// The kick count's messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { kickCountStrings } from './strings';

export default {
  'kicks.title': 'Cuente las patadas de su bebé',
  'kicks.loading': 'Cargando sus conteos de patadas',
  'kicks.howTo':
    'Una vez al día, cuando su bebé suele estar activo, siéntese o acuéstese de lado y toque el botón cada vez que sienta un movimiento: una patada, un giro o un aleteo. La mayoría de los bebés hacen {goal} movimientos en mucho menos de 2 horas.',
  'kicks.startsAt':
    'El conteo de patadas empieza a las {from} semanas. Usted tiene {weeks, plural, one {# semana} other {# semanas}} de embarazo.',
  'kicks.startsAt.noDueDate':
    'El conteo de patadas empieza a las {from} semanas. Todavía no conocemos su fecha probable de parto: pregunte a su equipo de atención.',
  'kicks.weekByWeek': 'Ver su embarazo semana a semana',
  'kicks.start': 'Empezar a contar',
  'kicks.progress': '{movements} de {goal} movimientos · {minutes} min',
  'kicks.movement': 'Sentí un movimiento',
  'kicks.stop': 'Detener y guardar',
  'kicks.saving': 'Guardando su conteo…',
  'kicks.notSaved': '{summary}: todavía no se guardó.',
  'kicks.saveFailed': 'No se pudo guardar el conteo.',
  'kicks.tryAgain': 'Intentar de nuevo',
  'kicks.saved': 'Guardado: {summary}.',
  'kicks.movingWell': 'Su bebé se mueve bien.',
  'kicks.stoppedEarly': 'Se detuvo antes de {goal} movimientos',
  'kicks.fewer': 'Menos de {goal} movimientos en 2 horas',
  'kicks.callNow': 'Si su bebé se mueve menos de lo habitual, no espere hasta mañana: llame a',
  'kicks.now': 'ahora.',
  'kicks.cannotReach': 'Si no logra comunicarse, o cree que algo no está bien, llame al',
  'kicks.again': 'Contar de nuevo',
  'kicks.summary':
    '{movements, plural, one {# movimiento} other {# movimientos}} en {minutes, plural, one {# minuto} other {# minutos}}',
  'kicks.history': 'Sus conteos recientes',
  'kicks.history.none': 'Todavía no hay conteos. Sus conteos aparecerán aquí.',
  'kicks.chart': 'Minutos para contar los movimientos, del más antiguo al más reciente: {minutes}',
  'kicks.low': 'conteo bajo',
} satisfies Translations<typeof kickCountStrings>;
