// Live subscriptions over /ws/subscriptions-r4: the manager and its parts.
export { SubscriptionManager, INVALID_CLIENT, INVALID_URL, UNKNOWN_SUBSCRIPTION_WARNING } from './manager';
export type { SubscriptionManagerOptions } from './manager';
export { SubscriptionEmitter } from './emitter';
export type { SubscriptionEvent, SubscriptionEventMap, SubscriptionEventType } from './emitter';
export { FAILED_TO_GET_TOKEN, FAILED_TO_GET_URL, getBindingToken } from './binding-token';
export type { BindingToken } from './binding-token';
export { ReconnectingSocket, reconnectDelay } from './reconnecting-socket';
export type { BackoffOptions } from './reconnecting-socket';
export { EVENTS_MISSED, parseSocketMessage } from './notifications';
export type { SocketMessage } from './notifications';
