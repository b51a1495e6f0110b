// How the app names the signed-in profile: the header's user menu and the home page's greeting.
import type { ProfileResource } from '../../client';

/** The first given name of a person profile, else its display text. */
export function givenName(profile: ProfileResource): string | undefined {
  if (profile.resourceType === 'ClientApplication' || profile.resourceType === 'Bot') return profile.name;
  const name = profile.name?.[0];
  return name?.given?.[0] ?? name?.text ?? name?.family;
}
