// The platform client's FHIRcast calls (SPEC §5 rules, §7 Remote context sync, §8
// 'Invalid response!'). Each call checks its input with the rules the hub applies (src/fhir/fhircast)
// before anything is sent, so a bad request fails here with the same message the hub would give.
import { getRandomString } from '../pkce';
import type { RequestOptions } from '../request';
import {
  FHIRCAST_MESSAGES,
  subscriptionRequestToForm,
  validatePublish,
  validateSubscriptionRequest,
  validateTopic,
} from '../../fhir/fhircast';
import type { FhircastMessage, FhircastSubscriptionRequest } from '../../fhir/fhircast';
import { badRequest, OperationOutcomeError } from '../../fhir/outcomes';
import type { FhircastCurrentContext } from './types';

export const FHIRCAST_HUB_PATH = 'fhircast/STU3';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** What the calls need from the client: its request pipeline (auth, retries) and base URL. */
export interface FhircastHttp {
  post<T>(url: string, body: unknown, contentType?: string, options?: RequestOptions): Promise<T>;
  get<T>(url: string, options?: { cache?: 'default' | 'reload' | 'no-cache' }): Promise<T>;
}

function topicUrl(topic: string): string {
  return `${FHIRCAST_HUB_PATH}/${encodeURIComponent(topic)}`;
}

export async function fhircastSubscribe(
  http: FhircastHttp,
  topic: string,
  events: string[],
): Promise<FhircastSubscriptionRequest & { endpoint: string }> {
  const request: FhircastSubscriptionRequest = { channelType: 'websocket', mode: 'subscribe', topic, events };
  validateSubscriptionRequest(request);
  const body = await http.post<Record<string, unknown> | undefined>(
    FHIRCAST_HUB_PATH,
    subscriptionRequestToForm(request).toString(),
    FORM_CONTENT_TYPE,
  );
  const endpoint = body?.['hub.channel.endpoint'];
  if (typeof endpoint !== 'string' || endpoint === '') {
    throw new Error('Invalid response!');
  }
  return { ...request, endpoint };
}

export async function fhircastUnsubscribe(
  http: FhircastHttp,
  request: FhircastSubscriptionRequest,
): Promise<void> {
  const unsubscribe = { ...request, mode: 'unsubscribe' };
  if (!unsubscribe.endpoint) {
    throw new OperationOutcomeError(badRequest(FHIRCAST_MESSAGES.unsubscribeEndpoint));
  }
  validateSubscriptionRequest(unsubscribe);
  await http.post(FHIRCAST_HUB_PATH, subscriptionRequestToForm(unsubscribe).toString(), FORM_CONTENT_TYPE);
}

export type FhircastPublishOptions = Pick<RequestOptions, 'keepalive'>;

/**
 * Publishes `event` with `context` on `topic`; the hub answers with the message it accepted.
 * `options.keepalive` lets the request finish after the page is gone (a close sent on pagehide).
 */
export async function fhircastPublish(
  http: FhircastHttp,
  topic: string,
  event: string,
  context: unknown,
  versionId?: string,
  options?: FhircastPublishOptions,
): Promise<FhircastMessage> {
  const message: FhircastMessage = {
    timestamp: new Date().toISOString(),
    id: getRandomString(),
    event: validatePublish(topic, event, context, versionId),
  };
  return http.post<FhircastMessage>(topicUrl(topic), message, JSON_TYPE, options);
}

/** The hub's current context on `topic` (never cached: other apps change it). */
export async function fhircastGetContext(http: FhircastHttp, topic: string): Promise<FhircastCurrentContext> {
  validateTopic(topic);
  return http.get<FhircastCurrentContext>(topicUrl(topic), { cache: 'no-cache' });
}
