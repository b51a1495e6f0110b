// Shared viewing context for one signed-in clinician (SPEC §3 Remote context events,
// §7 Remote context sync): while on, viewing a Patient publishes Patient-open (Patient-close on
// leaving), viewing a DiagnosticReport publishes DiagnosticReport-open/-close with its patient, and an
// open published by another app on the same topic is followed (the app navigates to what it opened).
// Turning sharing off, signing out and the page going away close what this window has open.
// No React here: the hub calls come through a small interface, so the rules are tested with a fake.
import type { Reference, Resource } from '@medplum/fhirtypes';
import type { FhircastConnectionHandlers, FhircastPublishOptions } from '../../../client/fhircast';
import type {
  FhircastContextEntry,
  FhircastMessage,
  FhircastSubscriptionRequest,
} from '../../../fhir/fhircast';

/** The platform client's FHIRcast calls this needs (BloomClient has them all). */
export interface FhircastApi {
  fhircastSubscribe(
    topic: string,
    events: string[],
  ): Promise<FhircastSubscriptionRequest & { endpoint: string }>;
  fhircastUnsubscribe(request: FhircastSubscriptionRequest): Promise<void>;
  fhircastConnect(
    request: FhircastSubscriptionRequest,
    handlers: FhircastConnectionHandlers,
  ): { disconnect(): void };
  fhircastPublish(
    topic: string,
    event: string,
    context: unknown,
    versionId?: string,
    options?: FhircastPublishOptions,
  ): Promise<unknown>;
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export interface SharingStatus {
  readonly connection: ConnectionState;
  /** The last problem (a refused publish, a failed subscription, a socket error), until things work again. */
  readonly problem?: string;
}

export interface SharingHandlers {
  /** Go to this app path ('/Patient/123') because another app opened it. */
  follow(path: string): void;
  status(status: SharingStatus): void;
}

export const SHARED_EVENTS = [
  'Patient-open',
  'Patient-close',
  'DiagnosticReport-open',
  'DiagnosticReport-close',
];

/** The context key whose resource is the anchor of each followed event type. */
const ANCHOR_KEYS: Record<string, string> = { Patient: 'patient', DiagnosticReport: 'report' };

/** How long an own open waits for its echo from the hub before it is forgotten. */
const ECHO_WINDOW_MS = 15_000;

/**
 * A per-user topic: every window of the same user (the same profile) shares one context, and the
 * hub keeps topics inside the user's project. Another app joins by subscribing to the same name.
 */
export function userTopic(profile: { resourceType: string; id?: string }): string {
  return `bloom-${profile.resourceType}-${profile.id ?? ''}`;
}

function minimal(resourceType: string, id: string): Resource {
  return { resourceType, id } as Resource;
}

function patientIdOf(reference: Reference | undefined): string | undefined {
  const match = /^Patient\/([^/]+)$/.exec(reference?.reference ?? '');
  return match?.[1];
}

/**
 * The context entries announcing `resource`, or undefined when it is nothing FHIRcast shares (only
 * ids go out: the other app reads what it may see itself).
 */
export function contextFor(
  resource: Resource,
): { type: string; context: FhircastContextEntry[] } | undefined {
  if (!resource.id) return undefined;
  if (resource.resourceType === 'Patient') {
    return { type: 'Patient', context: [{ key: 'patient', resource: minimal('Patient', resource.id) }] };
  }
  if (resource.resourceType === 'DiagnosticReport') {
    // FHIRcast needs the report's patient; a report about a group or a device is not shared.
    const patientId = patientIdOf(resource.subject);
    if (!patientId) return undefined;
    return {
      type: 'DiagnosticReport',
      context: [
        { key: 'report', resource: minimal('DiagnosticReport', resource.id) },
        { key: 'patient', resource: minimal('Patient', patientId) },
      ],
    };
  }
  return undefined;
}

function anchorOf(message: FhircastMessage): { kind: 'open' | 'close'; anchor: string } | undefined {
  const [type, kind] = message.event['hub.event'].split('-');
  const key = ANCHOR_KEYS[type];
  if (!key || (kind !== 'open' && kind !== 'close')) return undefined;
  const resource = message.event.context.find((entry) => entry.key === key)?.resource;
  if (resource?.resourceType !== type || typeof resource.id !== 'string') return undefined;
  return { kind, anchor: `${type}/${resource.id}` };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

interface SharedView {
  readonly anchor: string;
  readonly type: string;
  readonly context: FhircastContextEntry[];
}

export class ContextSharing {
  /** What the topic has open, as far as this window knows ('Patient/1'). */
  private current: string | undefined;
  /** What this window shows now (undefined on screens that share nothing). */
  private shown: SharedView | undefined;
  /** The page went away (pagehide): its close is sent; a page restored from cache opens again. */
  private hidden = false;
  /** Opens this window published whose echo from the hub has not arrived yet. */
  private ownOpens: Array<{ anchor: string; at: number }> = [];
  private subscription: (FhircastSubscriptionRequest & { endpoint: string }) | undefined;
  private connection: { disconnect(): void } | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private state: SharingStatus = { connection: 'connecting' };
  /** Publishes go out one at a time, so the hub sees a close before the next open. */
  private publishing: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: FhircastApi,
    readonly topic: string,
    private readonly handlers: SharingHandlers,
    private readonly retryDelayMs = 3000,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.stopped = false;
    this.report({ connection: 'connecting' });
    void this.connect();
  }

  /**
   * Closes what this window has open (sharing turned off, signing out), then leaves the topic.
   * Resolves once the hub has answered every publish, so a sign-out may wait for it.
   */
  stop(): Promise<void> {
    this.closeShown();
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.connection?.disconnect();
    this.connection = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    // Best effort: the hub delivers only to connected sockets, so one left behind hears nothing.
    if (subscription) this.api.fhircastUnsubscribe(subscription).catch(() => undefined);
    return this.publishing;
  }

  /**
   * The page is going away (pagehide): the close goes out at once with keepalive, so it reaches the
   * hub after the tab is gone; queued publishes would not.
   */
  pageHidden(): void {
    if (this.stopped || this.hidden) return;
    this.hidden = true;
    const shown = this.shown;
    if (!shown || this.current !== shown.anchor) return;
    this.current = undefined;
    this.api
      .fhircastPublish(this.topic, `${shown.type}-close`, shown.context, undefined, { keepalive: true })
      .catch(() => undefined);
  }

  /** The page came back from the back/forward cache: what it shows is opened again. */
  pageShown(): void {
    if (this.stopped || !this.hidden) return;
    this.hidden = false;
    const shown = this.shown;
    if (shown && this.current !== shown.anchor) this.open(shown);
  }

  /** The window now shows `resource`; the returned function is called when it no longer does. */
  view(resource: Resource): () => void {
    const shared = contextFor(resource);
    if (!shared || this.stopped) return () => undefined;
    const view: SharedView = { anchor: `${resource.resourceType}/${resource.id}`, ...shared };
    this.shown = view;
    // Arriving here because another app opened it: the hub already has it open.
    if (this.current !== view.anchor) this.open(view);
    return () => {
      if (this.shown === view) this.shown = undefined;
      // Left because another app opened something else: that app's open replaced this context.
      if (this.stopped || this.current !== view.anchor) return;
      this.current = undefined;
      this.publish(`${view.type}-close`, view.context);
    };
  }

  private open(view: SharedView): void {
    this.current = view.anchor;
    this.ownOpens.push({ anchor: view.anchor, at: this.now() });
    this.publish(`${view.type}-open`, view.context);
  }

  /** Publishes the close of what is on screen when the topic still has it open. */
  private closeShown(): void {
    const shown = this.shown;
    if (this.stopped || this.hidden || !shown || this.current !== shown.anchor) return;
    this.current = undefined;
    this.publish(`${shown.type}-close`, shown.context);
  }

  private async connect(): Promise<void> {
    try {
      const subscription = await this.api.fhircastSubscribe(this.topic, SHARED_EVENTS);
      if (this.stopped) {
        this.api.fhircastUnsubscribe(subscription).catch(() => undefined);
        return;
      }
      this.subscription = subscription;
      this.connection = this.api.fhircastConnect(subscription, {
        onOpen: () => this.report({ connection: 'connected' }),
        onMessage: (message) => this.receive(message),
        onError: (error) => this.report({ connection: this.state.connection, problem: error.message }),
        onClose: () => this.retry(),
      });
    } catch (err) {
      this.report({ connection: 'reconnecting', problem: messageOf(err) });
      this.retry();
    }
  }

  private retry(): void {
    if (this.stopped) return;
    this.connection = undefined;
    this.subscription = undefined;
    if (this.state.connection !== 'reconnecting') {
      this.report({ connection: 'reconnecting', problem: this.state.problem });
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) void this.connect();
    }, this.retryDelayMs);
  }

  private receive(message: FhircastMessage): void {
    const event = anchorOf(message);
    if (!event || this.stopped) return;
    const { kind, anchor } = event;
    if (kind === 'close') {
      if (this.current === anchor) this.current = undefined;
      return;
    }
    if (this.isOwnEcho(anchor)) return;
    if (this.current === anchor) return;
    this.current = anchor;
    this.handlers.follow(`/${anchor}`);
  }

  /** The hub sends this window's own opens back to it; those are not someone else's context. */
  private isOwnEcho(anchor: string): boolean {
    const fresh = this.now() - ECHO_WINDOW_MS;
    this.ownOpens = this.ownOpens.filter((open) => open.at >= fresh);
    const index = this.ownOpens.findIndex((open) => open.anchor === anchor);
    if (index === -1) return false;
    this.ownOpens.splice(0, index + 1);
    return true;
  }

  private publish(event: string, context: FhircastContextEntry[]): void {
    this.publishing = this.publishing.then(async () => {
      try {
        await this.api.fhircastPublish(this.topic, event, context);
        if (this.state.problem) this.report({ connection: this.state.connection });
      } catch (err) {
        this.report({ connection: this.state.connection, problem: `${event} not shared: ${messageOf(err)}` });
      }
    });
  }

  private report(status: SharingStatus): void {
    this.state = status;
    if (!this.stopped) this.handlers.status(status);
  }
}
