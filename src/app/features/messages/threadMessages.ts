// The thread as the screen holds it (issue #8): pages of CommunicationList (newest first), live
// messages and refetched pages merged into one list without duplicates, in the server's order, so
// an older page asked for by offset joins at the end and a new message at the start.
import type { MessageFieldsFragment } from '../../../graphql';

export type ThreadMessage = MessageFieldsFragment;

/** Messages per CommunicationList page; older pages load on scroll or 'Load older messages'. */
export const MESSAGE_PAGE_SIZE = 20;

/** When the message was sent, else when it was last written; undefined when neither reads as a time. */
export function messageTime(message: ThreadMessage): string | undefined {
  const value = message.sent ?? message.meta?.lastUpdated ?? undefined;
  return value && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

function sortKey(message: ThreadMessage): number {
  const time = messageTime(message);
  return time ? Date.parse(time) : Number.NEGATIVE_INFINITY;
}

/** Newest first (as `_sort: "-sent"`), ties by id so the order never flickers. */
function newestFirst(a: ThreadMessage, b: ThreadMessage): number {
  const byTime = sortKey(b) - sortKey(a);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  return (b.id ?? '').localeCompare(a.id ?? '');
}

/**
 * One newest-first list of `current` and `incoming`; a message in both is taken from `incoming`
 * (the newer version of it). Messages without an id cannot be told apart and are dropped.
 */
export function mergeMessages(
  current: ReadonlyArray<ThreadMessage | null> | null | undefined,
  incoming: ReadonlyArray<ThreadMessage | null> | null | undefined,
): ThreadMessage[] {
  const byId = new Map<string, ThreadMessage>();
  for (const message of [...(current ?? []), ...(incoming ?? [])]) {
    if (message?.id) byId.set(message.id, message);
  }
  return [...byId.values()].sort(newestFirst);
}
