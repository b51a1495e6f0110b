// The landing page's messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { landingStrings } from './strings';

export default {
  'landing.title': 'Bloom · Su embarazo, en un solo lugar',
  'landing.overline': 'Atención del embarazo',
  'landing.heading': 'Una atención que crece con usted',
  'landing.intro':
    'Bloom reúne su embarazo en un lugar tranquilo: resultados de laboratorio, signos vitales, vacunas y citas, con su equipo de atención a un mensaje de distancia.',
  'landing.signUp': 'Registrarse',
  'landing.logIn': 'Iniciar sesión',
  'landing.heroAlt':
    'Ilustración de una flor rosada en plena floración junto a un brote joven y un capullo, bajo un sol cálido',
  'landing.features.title': 'Todo para los meses que vienen',
  'landing.features.record.title': 'Su historial de salud',
  'landing.features.record.text':
    'Resultados de laboratorio con rangos de referencia, medicamentos, vacunas y signos vitales, explicados con palabras sencillas.',
  'landing.features.messages.title': 'Mensajes con su equipo de atención',
  'landing.features.messages.text':
    'Haga una pregunta entre consultas y conserve toda la conversación en un solo hilo.',
  'landing.features.appointments.title': 'Citas a su medida',
  'landing.features.appointments.text':
    'Elija el día y la hora que le convengan y envíe una solicitud en pocos pasos.',
  'landing.language': 'Idioma',
} satisfies Translations<typeof landingStrings>;
