// Home's messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { homeStrings } from './strings';

export default {
  'home.title': 'Inicio · Bloom',
  'home.greeting': 'Hola, {name}',
  'home.greeting.noName': 'Hola',
  'home.intro':
    'Su equipo de atención está aquí para ayudarle. ¿Tiene preguntas sobre su embarazo? Envíenos un mensaje.',
  'home.sendMessage': 'Enviar mensaje',
  'home.summary.loading': 'Cargando su resumen',
  'home.pregnancy.title': 'Su embarazo',
  'home.pregnancy.progress':
    '{weeks, plural, one {# semana} other {# semanas}} {days, plural, one {# día} other {# días}} · trimestre {trimester}',
  'home.pregnancy.dueDate': 'Fecha probable de parto:',
  'home.pregnancy.fromLastPeriod': '(calculada desde el primer día de su última menstruación)',
  'home.pregnancy.timeline': 'La cronología de su embarazo',
  'home.nextStep.title': 'Próximo paso',
  'home.nextStep.from': 'Desde el',
  'home.nextStep.fallback': 'Paso de atención',
  'home.nextStep.to': 'hasta el',
  'home.nextStep.answer': 'Responder el cuestionario',
  'home.nextStep.carePlan': 'Ver su plan de atención',
  'home.nextAppointment.title': 'Próxima cita',
  'home.nextVaccine.title': 'Próxima vacuna',
  'home.nextVaccine.fallback': 'Vacuna',
  'home.stages.heading': 'Su embarazo, etapa por etapa',
  'home.stages.first.title': 'Primer trimestre',
  'home.stages.first.text': 'Semanas 1 a 13: primeros cambios, primeras consultas y pruebas.',
  'home.stages.second.title': 'Segundo trimestre',
  'home.stages.second.text':
    'Semanas 14 a 27: los primeros movimientos del bebé, la ecografía anatómica, la prueba de glucosa.',
  'home.stages.third.title': 'Tercer trimestre',
  'home.stages.third.text': 'Semanas 28 a 40: contar las patadas, prepararse para el parto.',
  'home.stages.labor.title': 'Trabajo de parto y parto',
  'home.stages.labor.text': 'Señales del trabajo de parto, cuándo llamar y qué pasa en el parto.',
  'home.stages.newTab': '(se abre en una pestaña nueva)',
  'home.unknownDueDate.heading': 'Todavía no conocemos su fecha probable de parto.',
  'home.unknownDueDate.before': 'Su equipo de atención la fija en su consulta de datación:',
  'home.unknownDueDate.ask': 'pregúnteles',
  'home.unknownDueDate.after':
    '. O escriba el primer día de su última menstruación y nosotros la calcularemos.',
  'home.lastPeriod.form': 'Última menstruación',
  'home.lastPeriod.label': 'Primer día de la última menstruación',
  'home.lastPeriod.submit': 'Calcular mi fecha de parto',
  'home.lastPeriod.dateFormat': 'Escriba la fecha con día, mes y año.',
  'home.lastPeriod.dateInFuture': 'La fecha no puede ser en el futuro.',
  'home.lastPeriod.dateTooOld': 'Eso fue hace más de 42 semanas. Por favor, revise la fecha.',
  'home.lastPeriod.saveFailed': 'No se pudo guardar la fecha.',
} satisfies Translations<typeof homeStrings>;
