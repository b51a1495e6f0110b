// The agent program's connection: signs in with client credentials through the
// platform client, opens the server's agent WebSocket, announces itself (agent:connect:request with
// the access token, the Agent id and its destinations), then carries out transmit requests: the
// body goes to the named destination on this network (HL7 v2 over MLLP, or plain TCP) and, when
// the server waits (a callback), the destination's reply goes back. A lost connection is re-opened
// with a doubling delay; silence from the server for two heartbeats counts as lost.
import crypto from 'node:crypto';
import type net from 'node:net';
import type { Agent, Endpoint } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import { BloomClient } from '../client';
import { isJwt, parseJwtPayload } from '../fhir/jwt';
import { MemoryStorage, PrefixedStorage } from '../client/storage';
import { AGENT_WS_PATH, parseAgentMessage } from '../fhir/agent-protocol';
import { HL7_V2_CONTENT_TYPE } from '../fhir/agent-protocol';
import type { AgentMessage, AgentTransmitRequest, AgentTransmitResponse } from '../fhir/agent-protocol';
import type { AgentConfig } from './config';
import { deliver, findDestination, parseDestination } from './destinations';
import { buildAck } from './hl7-ack';
import { createMllpServer } from './mllp';
import { DestinationError } from './socket-exchange';

export const AGENT_VERSION = '0.1.0';
/** The server closes an older connection of an Agent with this code when a newer one connects. */
export const REPLACED_CLOSE_CODE = 4409;

export interface AgentLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const consoleLogger: AgentLogger = {
  info: (m) => console.log(`[agent] ${m}`),
  warn: (m) => console.warn(`[agent] ${m}`),
  error: (m) => console.error(`[agent] ${m}`),
};

/** HTTP-like status codes the agent reports for a failed delivery (the server answers with them). */
function statusOf(err: unknown): number {
  if (err instanceof DestinationError) return err.kind === 'timeout' ? 504 : 502;
  return 500;
}

export class BloomAgent {
  private readonly client: BloomClient;
  private socket: WebSocket | undefined;
  private stopped = false;
  private connected = false;
  private reconnectDelay = 1000;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Fires when the token enters its renewal window (not at the next heartbeat, up to one later). */
  private renewalTimer: NodeJS.Timeout | undefined;
  /** The renewal under way: one at a time, however many heartbeats ask while it runs. */
  private renewal: Promise<void> | undefined;
  private lastHeard = 0;
  private signedIn = false;
  /** The access token last given to the server. */
  private sentToken = '';
  /** MLLP listeners of the Agent's channels, and the inbound messages waiting for the server. */
  private readonly channelServers: net.Server[] = [];
  private readonly inbound = new Map<
    string,
    (response: AgentTransmitResponse | undefined, error?: string) => void
  >();

  constructor(
    private readonly config: AgentConfig,
    private readonly logger: AgentLogger = consoleLogger,
  ) {
    this.client = new BloomClient({
      baseUrl: config.baseUrl,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      storage: new PrefixedStorage(new MemoryStorage()),
    });
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Signs in and connects; rejects when the credentials or the Agent are refused (the program
   * exits then), and keeps reconnecting after any later loss until stop().
   */
  async start(): Promise<void> {
    this.stopped = false;
    await this.signIn();
    await this.connect();
    if (this.channelServers.length === 0) {
      // Pushes work without channels: a channel that cannot open is reported, not fatal.
      await this.openChannels().catch((err: unknown) =>
        this.logger.error(`Inbound channels not opened: ${(err as Error).message}`),
      );
    }
  }

  /** The local ports the Agent's channels listen on (tests connect to them). */
  get channelPorts(): number[] {
    return this.channelServers.map((server) => (server.address() as net.AddressInfo).port);
  }

  /**
   * Agent.channel (Medplum's shape): each channel's Endpoint address (mllp://host:port) is listened
   * on here; a message arriving goes to the server, which runs the channel's bot, and the bot's
   * output (the ACK) goes back to the sender. A failure is answered with an AE ACK saying why.
   */
  private async openChannels(): Promise<void> {
    const agent = await this.client.readResource<Agent>('Agent', this.config.agentId);
    for (const channel of agent.channel ?? []) {
      const reference = channel.endpoint?.reference ?? '';
      const [type, id] = reference.split('/');
      if (type !== 'Endpoint' || !id) continue;
      const endpoint = await this.client.readResource<Endpoint>('Endpoint', id);
      let listen;
      try {
        listen = parseDestination({ name: channel.name, url: endpoint.address });
      } catch (err) {
        this.logger.warn(`Channel '${channel.name}' skipped: ${(err as Error).message}`);
        continue;
      }
      if (listen.protocol !== 'mllp') {
        this.logger.warn(`Channel '${channel.name}' skipped: only mllp:// channels are served`);
        continue;
      }
      const server = createMllpServer((message) => this.receive(channel.name, message));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listen.port, listen.host, () => resolve());
      });
      // Once listening, an accept failure (too many open files) costs that connection, not the agent.
      server.on('error', (err) => this.logger.warn(`Channel '${channel.name}': ${err.message}`));
      this.channelServers.push(server);
      this.logger.info(`Channel '${channel.name}' listening on ${endpoint.address}`);
    }
  }

  private receive(channel: string, message: string): Promise<string | undefined> {
    const nack = (text: string): string | undefined => {
      try {
        return buildAck(message, 'AE', text);
      } catch {
        return undefined;
      }
    };
    if (!this.connected) return Promise.resolve(nack('The agent is not connected to its server'));
    const callback = crypto.randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.inbound.delete(callback);
        resolve(nack('No answer from the server in time'));
      }, this.config.destinationTimeout);
      this.inbound.set(callback, (response, error) => {
        clearTimeout(timer);
        this.inbound.delete(callback);
        if (!response || error) resolve(nack(error ?? 'The server refused the message'));
        else if ((response.statusCode ?? 200) >= 400) resolve(nack(response.body));
        else resolve(response.body);
      });
      this.send({
        type: 'agent:transmit:request',
        callback,
        channel,
        remote: channel,
        contentType: HL7_V2_CONTENT_TYPE,
        body: message,
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.renewalTimer);
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000, 'Agent stopping');
        setTimeout(() => {
          socket.terminate();
          resolve();
        }, 1000).unref();
      });
    }
    await Promise.all(this.channelServers.map((server) => new Promise((resolve) => server.close(resolve))));
    this.channelServers.length = 0;
    this.client.close();
  }

  /** Signs in with client credentials at first and again once the token nears its expiry. */
  private async signIn(): Promise<void> {
    if (!this.signedIn || this.tokenExpiring()) {
      await this.client.startClientLogin(this.config.clientId, this.config.clientSecret);
      this.signedIn = true;
    }
  }

  /** Within half its lifetime (at most 5 minutes) of expiring, as the platform client renews. */
  private tokenExpiring(): boolean {
    const renewAt = this.renewalDue();
    return renewAt === undefined || Date.now() >= renewAt;
  }

  /** When (ms since the epoch) the token enters its renewal window; undefined without a JWT. */
  private renewalDue(): number | undefined {
    const token = this.client.getAccessToken();
    if (!token || !isJwt(token)) return undefined;
    const { exp, iat } = parseJwtPayload(token);
    if (typeof exp !== 'number') return Infinity;
    const margin = Math.min(5 * 60, typeof iat === 'number' ? (exp - iat) / 2 : 5 * 60);
    return (exp - margin) * 1000;
  }

  /** Renews the token as soon as it enters its renewal window (while connected). */
  private scheduleRenewal(): void {
    clearTimeout(this.renewalTimer);
    const due = this.renewalDue();
    if (due === undefined || due === Infinity || this.stopped) return;
    // setTimeout's longest delay is about 24.8 days; a later renewal is rescheduled on a heartbeat.
    const delay = Math.min(Math.max(0, due - Date.now()), 2 ** 31 - 1);
    this.renewalTimer = setTimeout(() => void this.renewToken(), delay);
    this.renewalTimer.unref();
  }

  private websocketUrl(): string {
    return this.config.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '') + AGENT_WS_PATH;
  }

  /** Resolves on agent:connect:response; rejects on a refusal or a socket that closes first. */
  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.websocketUrl());
      this.socket = socket;
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      };
      socket.on('open', () => this.sendConnectRequest());
      socket.on('message', (data, isBinary) => {
        this.lastHeard = Date.now();
        const parsed = parseAgentMessage(isBinary ? '' : data.toString());
        if (!parsed.ok) {
          this.logger.warn(`Ignoring a message from the server: ${parsed.error}`);
          return;
        }
        const message = parsed.message;
        if (message.type === 'agent:connect:response') {
          if (this.connected) {
            this.logger.info('Token renewed on the same connection');
            return;
          }
          this.connected = true;
          this.scheduleRenewal();
          this.reconnectDelay = 1000;
          this.startHeartbeat();
          this.logger.info(`Connected to ${this.config.baseUrl} as Agent/${this.config.agentId}`);
          settle();
          return;
        }
        if (message.type === 'agent:error' && !this.connected) {
          settle(new Error(`The server refused the agent: ${message.body}`));
          return;
        }
        this.handle(message);
      });
      socket.on('error', (err) => {
        this.logger.warn(`WebSocket error: ${err.message}`);
        settle(err);
      });
      socket.on('close', (code, reason) => {
        const wasConnected = this.connected;
        this.connected = false;
        clearInterval(this.heartbeatTimer);
        settle(new Error(`The server closed the connection (${code} ${reason.toString()})`));
        if (this.socket === socket) this.socket = undefined;
        if (code === REPLACED_CLOSE_CODE) {
          // Another program connected as this Agent: reconnecting would take turns with it forever.
          this.logger.error('Another program connected as this Agent; this one stays disconnected');
        } else if (!this.stopped && wasConnected) {
          this.logger.warn(`Disconnected from the server (${code} ${reason.toString()}); reconnecting`);
          this.scheduleReconnect();
        }
      });
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, this.config.maxReconnectDelay);
    this.reconnectTimer = setTimeout(() => {
      this.signIn()
        .then(() => this.connect())
        .catch((err: unknown) => {
          // Only a connection that was established schedules from its close: this one never was.
          this.logger.warn(`Reconnection failed: ${(err as Error).message}`);
          this.scheduleReconnect();
        });
    }, delay);
  }

  /** Announces this agent with the current access token (again after each renewal). */
  private sendConnectRequest(): void {
    this.sentToken = this.client.getAccessToken() ?? '';
    this.send({
      type: 'agent:connect:request',
      accessToken: this.sentToken,
      agentId: this.config.agentId,
      destinations: this.config.destinations.map(({ name, url }) => ({ name, url })),
    });
  }

  /**
   * The server closes the socket when the token it was given expires: the token is renewed before
   * that (client credentials again) and handed over on the same socket.
   */
  private renewToken(): Promise<void> {
    this.renewal ??= this.signIn()
      .then(() => {
        if (this.connected && this.client.getAccessToken() !== this.sentToken) {
          this.sendConnectRequest();
          this.scheduleRenewal();
        }
      })
      .catch((err: unknown) => {
        // The next heartbeat tries again.
        this.logger.warn(`Token renewal failed: ${(err as Error).message}`);
      })
      .finally(() => {
        this.renewal = undefined;
      });
    return this.renewal;
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.lastHeard = Date.now();
    this.heartbeatTimer = setInterval(() => {
      const silent = () => Date.now() - this.lastHeard > 2 * this.config.heartbeatInterval;
      if (silent()) {
        // After an event-loop stall this timer runs before the server's waiting messages are
        // read: look again once pending I/O has been handled.
        const socket = this.socket;
        setImmediate(() => {
          if (!silent() || socket !== this.socket) return;
          this.logger.warn('No word from the server for two heartbeats; reconnecting');
          socket?.terminate();
        });
        return;
      }
      this.send({ type: 'agent:heartbeat:request' });
      void this.renewToken();
    }, this.config.heartbeatInterval);
    this.heartbeatTimer.unref();
  }

  private handle(message: AgentMessage): void {
    switch (message.type) {
      case 'agent:heartbeat:request':
        this.send({ type: 'agent:heartbeat:response', version: AGENT_VERSION });
        return;
      case 'agent:heartbeat:response':
        return;
      case 'agent:transmit:response':
        if (message.callback) this.inbound.get(message.callback)?.(message);
        return;
      case 'agent:transmit:request':
        void this.transmit(message);
        return;
      case 'agent:error':
        if (message.callback && this.inbound.has(message.callback)) {
          this.inbound.get(message.callback)?.(undefined, message.body);
          return;
        }
        this.logger.warn(`Server error: ${message.body}`);
        return;
      default:
        this.send({ type: 'agent:error', body: `Unexpected message type: ${message.type}` });
    }
  }

  /** Delivers one push; answers only when the server waits for it (it sent a callback). */
  private async transmit(request: AgentTransmitRequest): Promise<void> {
    const reply = (statusCode: number, body: string, contentType = request.contentType): void => {
      if (!request.callback) return;
      const response: AgentTransmitResponse = {
        type: 'agent:transmit:response',
        callback: request.callback,
        remote: request.remote,
        contentType,
        statusCode,
        body,
      };
      this.send(response);
    };
    const destination = findDestination(this.config.destinations, request.remote);
    if (!destination) {
      this.logger.warn(`Refused a push to unknown destination '${request.remote}'`);
      reply(404, `Unknown destination '${request.remote}'`, 'text/plain');
      return;
    }
    try {
      const answer = await deliver(destination, request.body, {
        waitForResponse: !!request.callback,
        timeoutMs: this.config.destinationTimeout,
        returnAck: request.returnAck,
      });
      reply(200, answer ?? '');
    } catch (err) {
      this.logger.warn(`Delivery to '${destination.name}' failed: ${(err as Error).message}`);
      reply(statusOf(err), (err as Error).message, 'text/plain');
    }
  }

  private send(message: AgentMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }
}
