// The app's sign-in address, /signin on its own origin: the redirect URI registered for the app's
// ClientApplication (the seeded 'Bloom app'), where an external sign-in comes back with ?code=, and
// the redirect_uri every code exchange names (the token endpoint only accepts registered ones).
export function signInRedirectUri(): string {
  return `${window.location.origin}/signin`;
}
