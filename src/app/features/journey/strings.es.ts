// The pregnancy journey's messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { journeyStrings } from './strings';

export default {
  'journey.title': 'Su embarazo',
  'journey.loading': 'Cargando su embarazo',
  'journey.thisWeek': 'Esta semana',
  'journey.week': 'Semana {week} · {trimester}',
  'journey.trimester.1': 'primer trimestre',
  'journey.trimester.2': 'segundo trimestre',
  'journey.trimester.3': 'tercer trimestre',
  'journey.progress':
    '{weeks, plural, one {# semana} other {# semanas}} {days, plural, one {# día} other {# días}}. Fecha probable de parto:',
  'journey.fromLastPeriod': '(calculada desde el primer día de su última menstruación)',
  'journey.countKicks': 'Cuente las patadas de su bebé',
  'journey.noDueDate':
    'Todavía no conocemos su fecha probable de parto. Pregunte a su equipo de atención o escriba el primer día de su última menstruación en su',
  'journey.homePage': 'página de inicio',
  'journey.carePlan': 'Su plan de atención',
  'journey.carePlan.none': 'Su equipo de atención todavía no ha preparado su plan de atención.',
  'journey.step.fallback': 'Paso de atención',
  'journey.step.to': 'al',
  'journey.step.overdue': 'Ya pasó el momento habitual: pregunte a su equipo de atención cuándo hacerlo.',
  'journey.step.answer': 'Responder el cuestionario',
  'journey.outcome.vaccine': 'Ver la vacuna',
  'journey.outcome.result': 'Ver el resultado',
  'journey.outcome.answers': 'Ver sus respuestas',
  'journey.outcome.visit': 'Consulta realizada',
  'journey.outcome.recorded': 'Registrado por su equipo de atención',
  'journey.stage.0':
    'Se están formando el corazón, el cerebro y la columna de su bebé. El cansancio y las náuseas son comunes ahora y suelen disminuir hacia la semana 14.',
  'journey.stage.14':
    'Muchas personas sienten más energía en estas semanas. Su vientre empieza a notarse, y la ecografía anatómica revisa cómo crece su bebé.',
  'journey.stage.20':
    'Es posible que empiece a sentir que su bebé se mueve. Su bebé crece rápido y puede oír sonidos de afuera.',
  'journey.stage.28':
    'Su bebé está aumentando de peso y se mueve a menudo; avise de inmediato a su equipo de atención si los movimientos disminuyen o cambian. Es momento de la vacuna contra la tos ferina.',
  'journey.stage.37':
    'Su bebé podría llegar cualquier día. Tenga lista su maleta y llame a su equipo de atención si se le rompe la fuente, tiene sangrado o los movimientos cambian.',
  'journey.questionnaire.title': 'Cuestionario',
  'journey.questionnaire.opening': 'Abriendo el cuestionario',
  'journey.questionnaire.unavailable':
    'Este cuestionario no está disponible. Por favor, consulte a su equipo de atención.',
  'journey.questionnaire.back': 'Volver a su plan de atención',
} satisfies Translations<typeof journeyStrings>;
