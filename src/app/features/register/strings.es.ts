// The registration screen's messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { registerStrings } from './strings';

export default {
  'register.pageTitle': 'Crear cuenta · Bloom',
  'register.title': 'Cree su cuenta en Bloom',
  'register.subtitle': 'Cree su cuenta para seguir la atención de su embarazo.',
  'register.form': 'Crear cuenta',
  'register.submit': 'Crear cuenta',
  'register.haveAccount': '¿Ya tiene una cuenta?',
  'register.logIn': 'Iniciar sesión',
  'register.firstName': 'Nombre',
  'register.lastName': 'Apellido',
  'register.email': 'Correo electrónico',
  'register.password': 'Contraseña',
  'register.firstName.required': 'El nombre es obligatorio',
  'register.lastName.required': 'El apellido es obligatorio',
  'register.email.required': 'El correo electrónico es obligatorio',
  'register.password.required': 'La contraseña es obligatoria',
  'register.noCode': 'El registro no terminó: el servidor no envió un código de inicio de sesión',
} satisfies Translations<typeof registerStrings>;
