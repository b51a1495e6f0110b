// The screening message's strings in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { screeningStrings } from './strings';

export default {
  'screening.title': 'Gracias por sus respuestas',
  'screening.saving': 'Guardando sus respuestas',
  'screening.alert.intro':
    'Gracias por contarnos cómo se ha sentido. Muchas personas se sienten así durante el embarazo y después de tener un bebé, y la ayuda funciona. Su equipo de atención ya está informado y alguien se comunicará con usted.',
  'screening.alert.whoToContact': 'A quién llamar ahora',
  'screening.alert.callClinic': 'Por favor, llame a',
  'screening.alert.callClinicAfter': 'hoy para hablar con su equipo de atención.',
  'screening.alert.selfHarm':
    'Si tiene pensamientos de hacerse daño, no tiene que esperar: llame o envíe un mensaje de texto al',
  'screening.alert.crisisLine':
    '(Línea de Prevención del Suicidio y Crisis, con atención en español) a cualquier hora.',
  'screening.alert.emergency': 'Si siente que podría hacerse daño o está en peligro ahora, llame al',
  'screening.thanks':
    'Sus respuestas se guardaron y su equipo de atención las revisará con usted. Si desea hablar antes, llame a',
  'screening.back': 'Volver a los formularios',
} satisfies Translations<typeof screeningStrings>;
