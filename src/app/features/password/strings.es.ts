// The password screens' messages in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { passwordStrings } from './strings';

export default {
  'password.reset.pageTitle': 'Restablecer contraseña · Bloom',
  'password.reset.title': 'Restablezca su contraseña',
  'password.reset.subtitle': 'Le enviaremos un enlace por correo para crear una nueva.',
  'password.reset.sent':
    'Si alguna cuenta usa ese correo, el enlace para restablecer la contraseña va en camino. Revise su correo.',
  'password.reset.submit': 'Restablecer contraseña',
  'password.reset.email': 'Correo electrónico',
  'password.backToSignIn': 'Volver a iniciar sesión',
  'password.set.pageTitle': 'Nueva contraseña · Bloom',
  'password.set.title': 'Cree una nueva contraseña',
  'password.set.done': 'Su contraseña quedó guardada.',
  'password.set.signIn': 'Iniciar sesión',
  'password.set.submit': 'Guardar contraseña',
  'password.set.new': 'Nueva contraseña',
  'password.set.confirm': 'Confirme la nueva contraseña',
  'password.set.required': 'La contraseña es obligatoria',
  'password.set.mismatch': 'Las contraseñas no coinciden',
} satisfies Translations<typeof passwordStrings>;
