// The app's service worker (bundled into dist/app/sw.js by scripts/build-service-worker.mjs, which
// defines the precache list): the app shell (index.html, the hashed assets, the manifest and icons) is
// cached at install, so the app opens without a network; navigations go to the network first and fall
// back to the cached index.html; /config.json is kept from its last answer; GraphQL reads and the
// session (auth/me, which the app reads at start) are answered by the network and kept per signed-in
// profile, and answered from that store when the network fails, the page being told so (the banner).
// A click on one of the app's notifications focuses an open window of the app and asks it to show the
// notification's page (else opens one there).
import {
  answerCacheKey,
  answerOwner,
  GRAPHQL_ANSWERS_CACHE,
  isReadOnlyGraphqlBody,
  STORED_AT_HEADER,
} from './graphql-answers';
import { SW_MESSAGE_TYPE, type SwAnswerMessage } from './messages';
import { handleNotificationClick } from './notificationClick';

declare const __BLOOM_PRECACHE__: string[];
declare const __BLOOM_VERSION__: string;

// The worker global's few members used here (the project compiles against the DOM library only).
interface SwExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface SwFetchEvent extends SwExtendableEvent {
  readonly request: Request;
  readonly clientId: string;
  respondWith(response: Promise<Response>): void;
}
interface SwNotificationEvent extends SwExtendableEvent {
  readonly notification: Notification;
}
interface SwWindowClient {
  readonly url: string;
  focus(): Promise<SwWindowClient>;
  postMessage(message: unknown): void;
}
interface SwScope {
  readonly registration: { readonly scope: string };
  readonly clients: {
    claim(): Promise<void>;
    get(id: string): Promise<{ postMessage(message: unknown): void } | undefined>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<SwWindowClient[]>;
    openWindow(url: string): Promise<SwWindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: SwExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: SwNotificationEvent) => void): void;
}

const worker = self as unknown as SwScope;
const SHELL_PREFIX = 'bloom-shell-';
const SHELL_CACHE = `${SHELL_PREFIX}${__BLOOM_VERSION__}`;
const PRECACHED = new Set(__BLOOM_PRECACHE__);
const CONFIG_PATH = '/config.json';

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      // 'reload': the shell comes from the server, not from whatever the HTTP cache holds.
      .then((cache) => cache.addAll(__BLOOM_PRECACHE__.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  const sameOrigin = url.origin === new URL(worker.registration.scope).origin;
  if (request.method === 'GET' && sameOrigin && request.mode === 'navigate') {
    event.respondWith(navigation(request));
  } else if (request.method === 'GET' && sameOrigin && PRECACHED.has(url.pathname)) {
    event.respondWith(shellFile(request));
  } else if (request.method === 'GET' && sameOrigin && url.pathname === CONFIG_PATH) {
    event.respondWith(configFile(request));
  } else if (request.method === 'POST' && url.pathname.endsWith('/$graphql')) {
    event.respondWith(personalAnswer(request, event.clientId));
  } else if (request.method === 'GET' && url.pathname.endsWith('/auth/me')) {
    event.respondWith(personalAnswer(request, event.clientId));
  }
});

worker.addEventListener('notificationclick', (event) => handleNotificationClick(worker.clients, event));

async function navigation(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match('/index.html', { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
}

async function shellFile(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: SHELL_CACHE })) ?? fetch(request);
}

/** Where the API is: the last answer serves an offline start. */
async function configFile(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(SHELL_CACHE)).put(CONFIG_PATH, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(CONFIG_PATH, { cacheName: SHELL_CACHE });
    if (kept) return kept;
    throw error;
  }
}

async function tell(clientId: string, message: SwAnswerMessage): Promise<void> {
  const client = clientId ? await worker.clients.get(clientId) : undefined;
  client?.postMessage(message);
}

/** A read of the signed-in person's data: from the network, else from what was kept for that person. */
async function personalAnswer(request: Request, clientId: string): Promise<Response> {
  const body = request.method === 'GET' ? '' : await request.clone().text();
  const owner = answerOwner(request.headers.get('authorization'));
  if (!owner || (request.method !== 'GET' && !isReadOnlyGraphqlBody(body))) return fetch(request);
  const key = await answerCacheKey(worker.registration.scope, request.url, owner, body);
  try {
    const response = await fetch(request);
    if (response.ok) await keep(key, response.clone());
    void tell(clientId, { type: SW_MESSAGE_TYPE, source: 'network' });
    return response;
  } catch (error) {
    const stored = await caches.match(key, { cacheName: GRAPHQL_ANSWERS_CACHE });
    if (!stored) throw error;
    void tell(clientId, {
      type: SW_MESSAGE_TYPE,
      source: 'cache',
      storedAt: stored.headers.get(STORED_AT_HEADER) ?? undefined,
    });
    return stored;
  }
}

async function keep(key: string, response: Response): Promise<void> {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, new Date().toISOString());
  const copy = new Response(await response.blob(), { status: response.status, headers });
  const cache = await caches.open(GRAPHQL_ANSWERS_CACHE);
  await cache.put(key, copy);
}
