// Route of SPEC §2 messages/*: the messaging screen, its own chunk (React.lazy), so the thread, the
// composer and the live subscription load only here.
import { retryableLazy } from '../../components/retryableLazy';
import type { RouteObject } from 'react-router-dom';

const MessagesPage = retryableLazy(() => import('./MessagesPage').then((m) => ({ default: m.MessagesPage })));

export const messagesRoutes: RouteObject[] = [{ path: 'messages/*', element: <MessagesPage /> }];

/** The same screen in a care-team member's patient chart, reading the patient from the route. */
export function chartMessagesRoute(): RouteObject {
  return { path: 'messages', element: <MessagesPage /> };
}
