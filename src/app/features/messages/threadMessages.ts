// The thread as the screen holds it: pages of CommunicationList (newest first), live
// messages and refetched pages merged into one list without duplicates, in the server's order, so
// an older page asked for by offset joins at the end and a new message at the start. The messages
// are those of her thread header (a Communication without partOf, as Medplum's ThreadChat reads it):
// only a message partOf that header joins.
import type { CommunicationListQuery, MessageFieldsFragment } from '../../../graphql';

export type ThreadMessage = MessageFieldsFragment;

/** Her thread header with one page of its messages, as CommunicationList answers it. */
export type ThreadPage = NonNullable<NonNullable<CommunicationListQuery['CommunicationList']>[number]>;

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

/** The thread of a CommunicationList answer: her most recently active header, if she has one. */
export function threadOf(data: CommunicationListQuery | null | undefined): ThreadPage | undefined {
  return data?.CommunicationList?.find((thread): thread is ThreadPage => Boolean(thread?.id));
}

/** Whether `message` is partOf the thread header `threadId`. */
export function isInThread(message: ThreadMessage, threadId: string | null | undefined): boolean {
  return (
    Boolean(threadId) && (message.partOf ?? []).some((p) => p?.reference === `Communication/${threadId}`)
  );
}

/**
 * `previous` with `incoming`'s messages merged in. A different (newer) thread header in `incoming`
 * replaces the old one, messages and all; messages of another thread never join.
 */
export function mergeThreadPages(
  previous: CommunicationListQuery | null | undefined,
  incoming: CommunicationListQuery,
): CommunicationListQuery {
  const before = threadOf(previous);
  const after = threadOf(incoming) ?? before;
  if (!after) return incoming;
  const kept = before?.id === after.id ? before.messages : [];
  const added = (threadOf(incoming)?.messages ?? []).filter(
    (m): m is ThreadMessage => m !== null && isInThread(m, after.id),
  );
  return { CommunicationList: [{ ...after, messages: mergeMessages(kept, added) }] };
}

/** `previous` with one live message added, when it belongs to the thread held. */
export function withLiveMessage(
  previous: CommunicationListQuery,
  message: ThreadMessage,
): CommunicationListQuery | undefined {
  const thread = threadOf(previous);
  if (!thread || !isInThread(message, thread.id)) return undefined;
  return { CommunicationList: [{ ...thread, messages: mergeMessages(thread.messages, [message]) }] };
}
