// The conversation (SPEC §2 messages): a scrollable, keyboard-focusable region holding the
// list of messages, oldest at the top. It opens at the newest message; older pages load when the top
// comes into view or through 'Load older messages' (never silently cut at a page), keeping the
// message the patient was reading in place; a new message scrolls into view when the patient was at
// the newest one, else 'Jump to newest message' appears. New messages from the care team are announced
// through `onNewMessage` (the screen's live region).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { EmptyState } from '../../components/ListStates';
import { useT, type Translate } from '../../i18n/LocaleProvider';
import { messagesStrings as s } from './strings';
import { MessageItem } from './MessageItem';
import { messageSender } from './messageSender';
import type { ThreadMessage } from './threadMessages';
import type { QueuedWrite } from '../../../client/offline-writes';
import { WaitingMessages } from './WaitingMessages';

/** Within this many pixels of the bottom counts as reading the newest message. */
const AT_BOTTOM_SLACK = 80;

const NONE_WAITING: readonly QueuedWrite[] = [];
const ignoreDismiss = () => undefined;

export interface MessageThreadProps {
  /** Oldest first. */
  readonly messages: readonly ThreadMessage[];
  /** The patient's own reference ("Patient/…"): her messages sit on the right. */
  readonly ownReference: string;
  readonly hasOlder: boolean;
  readonly loadingOlder: boolean;
  readonly olderError: Error | undefined;
  readonly onLoadOlder: () => void;
  readonly onNewMessage: (text: string) => void;
  /** Her messages written offline, not yet on the server (after the thread's newest). */
  readonly waiting?: readonly QueuedWrite[];
  readonly onDismissWaiting?: (key: string) => void;
}

function announcementOf(message: ThreadMessage, t: Translate): string {
  const text = (message.payload ?? []).map((part) => part?.contentString ?? '').find(Boolean);
  const count = (message.payload ?? []).filter((part) => part?.contentAttachment).length;
  const body = text ?? (count > 0 ? t(s.attachments, { count }) : '');
  const { name } = messageSender(message, t(s.careTeam));
  return body ? t(s.newFromWith, { name, body }) : t(s.newFrom, { name });
}

export function MessageThread({
  messages,
  ownReference,
  hasOlder,
  loadingOlder,
  olderError,
  onLoadOlder,
  onNewMessage,
  waiting = NONE_WAITING,
  onDismissWaiting = ignoreDismiss,
}: MessageThreadProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const shown = useRef<{ first?: string; last?: string; height: number } | undefined>(undefined);
  const [unseen, setUnseen] = useState(false);
  const t = useT();

  const scrollToNewest = useCallback(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
    atBottom.current = true;
    setUnseen(false);
  }, []);

  const first = messages[0]?.id ?? undefined;
  const last = messages[messages.length - 1];
  const lastId = last?.id ?? undefined;

  // Before paint, so the patient never sees the thread jump: open at the newest message; keep the
  // reading position when older messages are put above; follow a new message when at the newest.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const before = shown.current;
    shown.current = { first, last: lastId, height: element.scrollHeight };
    if (!before) {
      scrollToNewest();
      return;
    }
    if (lastId !== before.last && last) {
      const own = last.sender?.reference === ownReference;
      if (own || atBottom.current) scrollToNewest();
      else setUnseen(true);
      if (!own) onNewMessage(announcementOf(last, t));
    } else if (first !== before.first) {
      element.scrollTop += element.scrollHeight - before.height;
    }
  }, [first, last, lastId, ownReference, onNewMessage, scrollToNewest, t]);

  // A message she just wrote offline shows at the end: bring it into view.
  const waitingCount = waiting.length;
  const waitedBefore = useRef(waitingCount);
  useLayoutEffect(() => {
    if (waitingCount > waitedBefore.current) scrollToNewest();
    waitedBefore.current = waitingCount;
  }, [waitingCount, scrollToNewest]);

  // Images and other late content grow the thread: stay at the newest message if that is where the
  // patient was.
  useEffect(() => {
    const content = list.current;
    if (!content || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      const element = scroller.current;
      if (element && atBottom.current) element.scrollTop = element.scrollHeight;
      if (element && shown.current) shown.current = { ...shown.current, height: element.scrollHeight };
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  // The top of the thread in view loads the next older page (again after each page, while it stays
  // in view).
  useEffect(() => {
    const element = scroller.current;
    const sentinel = top.current;
    if (!element || !sentinel || !hasOlder || loadingOlder || olderError) return undefined;
    if (typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
      },
      { root: element, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, olderError, onLoadOlder, messages.length]);

  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        ref={scroller}
        role="region"
        aria-label={t(s.thread)}
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current =
            element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM_SLACK;
          if (atBottom.current) setUnseen(false);
        }}
        sx={{
          height: { xs: 'calc(100dvh - 330px)', sm: 'calc(100dvh - 360px)' },
          minHeight: 280,
          overflowY: 'auto',
          overflowX: 'hidden',
          overscrollBehavior: 'contain',
          border: 1,
          borderColor: 'divider',
          borderRadius: 2,
          bgcolor: 'background.default',
          px: { xs: 1, sm: 2 },
        }}
      >
        <Box ref={top} sx={{ display: 'flex', justifyContent: 'center', pt: 1.5, minHeight: 8 }}>
          {hasOlder && (
            <Button
              variant="text"
              size="small"
              onClick={onLoadOlder}
              disabled={loadingOlder}
              startIcon={loadingOlder ? <CircularProgress size={14} aria-hidden="true" /> : undefined}
            >
              {t(loadingOlder ? s.loadingOlder : s.loadOlder)}
            </Button>
          )}
          {!hasOlder && messages.length > 0 && (
            <Typography variant="caption" color="text.secondary">
              {t(s.start)}
            </Typography>
          )}
        </Box>
        {olderError && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={onLoadOlder}>
                {t(s.tryAgain)}
              </Button>
            }
          >
            {t(s.olderFailed, { reason: olderError.message })}
          </Alert>
        )}
        {messages.length === 0 && waiting.length === 0 && <EmptyState text={t(s.empty)} />}
        <Box ref={list} component="ol" aria-label={t(s.list)} sx={{ listStyle: 'none', m: 0, p: 0, pb: 1 }}>
          {messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              own={message.sender?.reference === ownReference}
            />
          ))}
        </Box>
        <WaitingMessages writes={waiting} onDismiss={onDismissWaiting} />
      </Box>
      {unseen && (
        <Button
          variant="contained"
          size="small"
          onClick={scrollToNewest}
          sx={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)' }}
        >
          {t(s.jump)}
        </Button>
      )}
    </Box>
  );
}
