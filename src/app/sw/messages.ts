// What the service worker tells the page about a GraphQL read: answered by the network, or from the
// answers kept on the device (and when those were received).
export const SW_MESSAGE_TYPE = 'bloom-graphql-answer';

export interface SwAnswerMessage {
  readonly type: typeof SW_MESSAGE_TYPE;
  readonly source: 'network' | 'cache';
  /** ISO time the kept answer was received (source 'cache'). */
  readonly storedAt?: string;
}

export function isSwAnswerMessage(data: unknown): data is SwAnswerMessage {
  const message = data as Partial<SwAnswerMessage> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    message.type === SW_MESSAGE_TYPE &&
    (message.source === 'network' || message.source === 'cache')
  );
}

/** The worker asks the page to show `url` (an app path): she clicked one of the app's notifications. */
export const SW_OPEN_TYPE = 'bloom-open';

export interface SwOpenMessage {
  readonly type: typeof SW_OPEN_TYPE;
  readonly url: string;
}

/** An app path: one leading slash, never another origin ('//host' or a scheme). */
export function isAppPath(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\');
}

export function isSwOpenMessage(data: unknown): data is SwOpenMessage {
  const message = data as Partial<SwOpenMessage> | null;
  return (
    typeof message === 'object' && message !== null && message.type === SW_OPEN_TYPE && isAppPath(message.url)
  );
}
