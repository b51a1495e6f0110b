// Where the agent may send: only the destinations in its configuration, each a name and an
// mllp:// (HL7 v2 over MLLP) or tcp:// (plain TCP) URL on the agent's own network. A transmit
// request names one by name or by URL (a Device's url, as Medplum sends); anything else is refused,
// so the server cannot make the agent reach arbitrary hosts.
import type { AgentDestination } from '../fhir/agent-protocol';
import { isCommitAck } from './hl7-ack';
import { sendMllp } from './mllp';
import { sendTcp } from './tcp-client';

export interface ParsedDestination extends AgentDestination {
  protocol: 'mllp' | 'tcp';
  host: string;
  port: number;
}

/** A configured destination checked once at start-up; throws with a message naming the problem. */
export function parseDestination(destination: AgentDestination): ParsedDestination {
  const { name, url } = destination;
  if (!name || !url) {
    throw new Error('Each destination needs a name and a url');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Destination '${name}': '${url}' is not a URL`);
  }
  const protocol = parsed.protocol.replace(/:$/, '');
  if (protocol !== 'mllp' && protocol !== 'tcp') {
    throw new Error(`Destination '${name}': only mllp:// and tcp:// URLs are supported, got '${url}'`);
  }
  const port = Number(parsed.port);
  if (!parsed.hostname || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`Destination '${name}': '${url}' needs a host and a port`);
  }
  return { name, url, protocol, host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

/** The configured destination a transmit request names (by name or by URL), or undefined. */
export function findDestination(
  destinations: readonly ParsedDestination[],
  remote: string,
): ParsedDestination | undefined {
  return (
    destinations.find((d) => d.name === remote) ??
    destinations.find((d) => d.url === remote || d.url.replace(/\/$/, '') === remote.replace(/\/$/, ''))
  );
}

export interface DeliveryOptions {
  waitForResponse: boolean;
  timeoutMs: number;
  /** HL7 only: 'application' skips commit ACKs (CA/CE/CR) and waits for the application's. */
  returnAck?: 'first' | 'application';
}

/** Sends `body` to `destination`; resolves with its reply when one is awaited. */
export function deliver(
  destination: ParsedDestination,
  body: string,
  options: DeliveryOptions,
): Promise<string | undefined> {
  const { host, port } = destination;
  if (destination.protocol === 'tcp') {
    return sendTcp({
      host,
      port,
      body,
      waitForResponse: options.waitForResponse,
      timeoutMs: options.timeoutMs,
    });
  }
  return sendMllp({
    host,
    port,
    message: body,
    waitForResponse: options.waitForResponse,
    timeoutMs: options.timeoutMs,
    acceptReply: options.returnAck === 'application' ? (reply) => !isCommitAck(reply) : undefined,
  });
}
