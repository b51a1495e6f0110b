// Who sent a message, as the thread shows it (SPEC §3 Communication: sender Patient or Practitioner
// with name given/family and photo): the name, the photo's URL (a URL or inline data) and initials
// for when there is no photo.
import { attachmentUrl } from '../../components/AttachmentViewer';
import type { ThreadMessage } from './threadMessages';

export interface MessageSender {
  readonly reference: string | undefined;
  readonly name: string;
  readonly photoUrl: string | undefined;
  readonly initials: string;
}

type SenderResource = NonNullable<NonNullable<ThreadMessage['sender']>['resource']>;

function resourceName(resource: SenderResource | null | undefined): string | undefined {
  if (!resource || !('name' in resource)) return undefined;
  const name = resource.name?.find((n) => n?.given?.length || n?.family);
  if (!name) return undefined;
  const parts = [...(name.given ?? []), name.family].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function resourcePhoto(resource: SenderResource | null | undefined): string | undefined {
  if (!resource || !('photo' in resource)) return undefined;
  for (const photo of resource.photo ?? []) {
    const url = photo ? attachmentUrl(photo) : undefined;
    if (url) return url;
  }
  return undefined;
}

function initialsOf(name: string): string {
  const letters = name
    .replace(/^(Dr|Mrs|Mr|Ms)\.?\s+/i, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() ?? '');
  return letters.length > 1 ? `${letters[0]}${letters[letters.length - 1]}` : (letters[0] ?? '?');
}

/** `unnamed`: what to call a sender without a name, in the active language. */
export function messageSender(message: ThreadMessage, unnamed: string): MessageSender {
  const sender = message.sender;
  // The reference's display is how the sender chose to be named ("Dr. Lily Chen"); else the resource's name.
  const name = sender?.display || resourceName(sender?.resource) || unnamed;
  return {
    reference: sender?.reference ?? undefined,
    name,
    photoUrl: resourcePhoto(sender?.resource),
    initials: initialsOf(name),
  };
}
