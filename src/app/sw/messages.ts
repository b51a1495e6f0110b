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
