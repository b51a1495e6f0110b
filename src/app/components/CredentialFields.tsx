// The two secret inputs of the sign-in and account forms, drawn the same way everywhere: a password
// field and a six-digit code from an authenticator app (SPEC §5 field errors under the input).
import { PlainTextField } from './PlainTextField';

interface CredentialFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onValueChange: (value: string) => void;
  /** The server's or the validator's text for this field; the input turns red when set. */
  readonly errorText: string | undefined;
  readonly autoFocus?: boolean;
}

interface PasswordFieldProps extends CredentialFieldProps {
  readonly name?: string;
  /** `current-password` to sign in or confirm; `new-password` lets the browser suggest one. */
  readonly autoComplete: 'current-password' | 'new-password';
}

export function PasswordField({ name = 'password', autoComplete, ...field }: PasswordFieldProps) {
  return <CredentialField {...field} name={name} type="password" autoComplete={autoComplete} />;
}

export function OneTimeCodeField(field: CredentialFieldProps) {
  return (
    <CredentialField
      {...field}
      name="token"
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={6}
      pattern="[0-9]*"
    />
  );
}

function CredentialField({
  label,
  value,
  onValueChange,
  errorText,
  ...input
}: CredentialFieldProps & {
  readonly name: string;
  readonly autoComplete: string;
  readonly type?: string;
  readonly inputMode?: 'numeric';
  readonly maxLength?: number;
  readonly pattern?: string;
}) {
  return (
    <PlainTextField
      {...input}
      label={label}
      required
      fullWidth
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={errorText !== undefined}
      helperText={errorText}
    />
  );
}
