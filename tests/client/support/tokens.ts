// Unsigned JWTs for the client's unit tests (the client decodes, it never verifies).
export function base64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function makeJwt(claims: Record<string, unknown>): string {
  return `${base64Url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64Url(JSON.stringify(claims))}.sig`;
}

/** An access token like the server's, valid for `lifetimeSeconds` from `now` (ms). */
export function accessToken(
  options: { clientId?: string; now?: number; lifetimeSeconds?: number; id?: string } = {},
): string {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return makeJwt({
    login_id: options.id ?? 'login-1',
    sub: 'user-1',
    profile: 'Patient/maria',
    ...(options.clientId ? { cid: options.clientId, client_id: options.clientId } : {}),
    iat,
    exp: iat + (options.lifetimeSeconds ?? 3600),
  });
}
