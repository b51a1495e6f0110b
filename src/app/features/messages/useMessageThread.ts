// The patient's thread (SPEC §2 messages): her thread header and the newest page of its
// messages in CommunicationList (the one GraphQL request of the screen), older pages by offset on
// demand, new and changed messages of that thread from the CommunicationChanged subscription, and the
// newest pages fetched again after every reconnection of the socket (down to the messages already
// shown), since graphql-ws does not replay what was published while it was down. Every source is
// merged into the one cached list (mergeThreadPages), so nothing shows twice and nothing is replaced.
import { useQuery, useSubscription } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  CommunicationChangedDocument,
  CommunicationListDocument,
  useLiveConnection,
  type CommunicationListQuery,
} from '../../../graphql';
import {
  MESSAGE_PAGE_SIZE,
  mergeMessages,
  mergeThreadPages,
  threadOf,
  withLiveMessage,
  type ThreadMessage,
} from './threadMessages';

/** Her thread header as the screen keeps it (id and participants), without its messages. */
export type ThreadHeader = Omit<NonNullable<ReturnType<typeof threadOf>>, 'messages'>;

export interface MessageThread {
  /** Her most recently active thread header; undefined until she has one (her first message opens it). */
  readonly thread: ThreadHeader | undefined;
  /** Oldest first, as the conversation reads. */
  readonly messages: readonly ThreadMessage[];
  readonly loading: boolean;
  readonly error: Error | undefined;
  readonly loaded: boolean;
  readonly hasOlder: boolean;
  readonly loadingOlder: boolean;
  readonly olderError: Error | undefined;
  /** The subscription failed (the socket itself reconnects by itself; this is a refused subscription). */
  readonly liveError: Error | undefined;
  loadOlder(): void;
  /** Fetches the newest page again and merges it (after sending, after a reconnection). */
  refreshNewest(): Promise<void>;
  retry(): void;
}

/** A refresh stops after this many pages (1,000 messages) even without reaching the held ones. */
const MAX_REFRESH_PAGES = 50;

function merged(previous: CommunicationListQuery | null | undefined, page: CommunicationListQuery) {
  return mergeThreadPages(previous, page);
}

export function useMessageThread(subject: string | undefined): MessageThread {
  const variables = useMemo(
    () => ({ subject: subject ?? '', count: MESSAGE_PAGE_SIZE, offset: 0 }),
    [subject],
  );
  const { data, loading, error, refetch, fetchMore, client } = useQuery(CommunicationListDocument, {
    variables,
    skip: !subject,
    // A cached thread shows at once, and the newest page is fetched anyway: the screen was not
    // listening while it was away. Kept as the policy (no cache-first after the first answer): Apollo
    // drops a cache update that lands while a request of a cache-first query is in flight, so a live
    // message arriving during the refetch after sending would not show; cache updates themselves
    // never cause a request under this policy.
    fetchPolicy: 'cache-and-network',
  });
  const [older, setOlder] = useState<{ loading: boolean; exhausted: boolean; error?: Error }>({
    loading: false,
    exhausted: false,
  });

  const page = threadOf(data);
  const newestFirst = page?.messages;
  const messages = useMemo(() => mergeMessages(newestFirst, []).reverse(), [newestFirst]);
  const thread = useMemo<ThreadHeader | undefined>(() => {
    if (!page) return undefined;
    const { messages: _messages, ...header } = page;
    return header;
  }, [page]);
  const count = messages.length;

  // The ids held when a refresh starts: its pages go on until they reach one of them.
  const held = useRef<readonly ThreadMessage[]>(messages);
  useEffect(() => {
    held.current = messages;
  }, [messages]);

  const refreshNewest = useCallback(async () => {
    // More may have been written while the socket was down than one page holds: pages from the newest
    // until one reaches a message the screen already had (or the start), so no hole is left between.
    const known = new Set(held.current.flatMap((m) => (m.id ? [m.id] : [])));
    for (let offset = 0, pages = 0; pages < MAX_REFRESH_PAGES; offset += MESSAGE_PAGE_SIZE, pages++) {
      const result = await fetchMore({
        variables: { offset },
        updateQuery: (previous, { fetchMoreResult }) => merged(previous, fetchMoreResult),
      });
      const newest = threadOf(result.data)?.messages ?? [];
      const reached = newest.some((m: ThreadMessage | null) => m?.id && known.has(m.id));
      if (known.size === 0 || reached || newest.length < MESSAGE_PAGE_SIZE) return;
    }
  }, [fetchMore]);

  const loadOlder = useCallback(() => {
    setOlder((state) => ({ ...state, loading: true, error: undefined }));
    // The offset is what the screen holds: messages that arrived live sit at the newest end of the
    // server's order too, so the next page starts right after them (a duplicate is merged away).
    fetchMore({
      variables: { offset: count },
      updateQuery: (previous, { fetchMoreResult }) => merged(previous, fetchMoreResult),
    }).then(
      (result) =>
        setOlder({
          loading: false,
          exhausted: (threadOf(result.data)?.messages?.length ?? 0) < MESSAGE_PAGE_SIZE,
        }),
      (cause: unknown) =>
        setOlder({
          loading: false,
          exhausted: false,
          error: cause instanceof Error ? cause : new Error(String(cause)),
        }),
    );
  }, [count, fetchMore]);

  const subscription = useSubscription(CommunicationChangedDocument, {
    variables: { subject: subject ?? '' },
    skip: !subject,
    onData: ({ data: live }) => {
      const message = live.data?.CommunicationChanged;
      if (!message) return;
      // Only a message of the thread held joins (a header's own change, its PATCHed `sent`, does
      // not). Without a thread yet, a message in one (the care team opened it) brings it in.
      let held = false;
      client.cache.updateQuery({ query: CommunicationListDocument, variables }, (previous) => {
        held = threadOf(previous) !== undefined;
        return (previous && withLiveMessage(previous, message)) ?? previous;
      });
      const inThread = message.partOf?.some((p) => p?.reference?.startsWith('Communication/'));
      if (inThread && !held) void refreshNewest().catch(() => undefined);
    },
  });

  const live = useLiveConnection();
  useEffect(() => {
    if (!live || !subject) return undefined;
    // The first connection is the one this screen opened, right beside its first query; every later
    // one follows a drop, and what was published meanwhile is fetched now.
    let connections = 0;
    return live.onConnected(() => {
      connections += 1;
      if (connections > 1) void refreshNewest().catch(() => undefined);
    });
  }, [live, subject, refreshNewest]);

  return {
    thread,
    messages,
    loading,
    error,
    loaded: data !== undefined,
    hasOlder: !older.exhausted && count >= MESSAGE_PAGE_SIZE,
    loadingOlder: older.loading,
    olderError: older.error,
    liveError: subscription.error,
    loadOlder,
    refreshNewest,
    retry: () => void refetch(),
  };
}
