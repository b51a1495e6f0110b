// The agent program's configuration: a JSON file and/or environment variables,
// the variables winning. README "Agent" lists them. Checked once at start-up: a bad value stops the
// program with a message naming it.
import fs from 'node:fs';
import type { AgentDestination } from '../fhir/agent-protocol';
import { parseDestination } from './destinations';
import type { ParsedDestination } from './destinations';

export interface AgentConfig {
  /** The Bloom (or Medplum) server, ending in '/'. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The id of the Agent resource this program serves. */
  agentId: string;
  destinations: ParsedDestination[];
  /** How long a destination has to answer, in milliseconds. */
  destinationTimeout: number;
  /** Milliseconds between heartbeats; no word from the server for two of them reconnects. */
  heartbeatInterval: number;
  /** Longest wait between reconnection attempts, in milliseconds (the wait doubles up to it). */
  maxReconnectDelay: number;
}

interface AgentConfigFile {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  agentId?: string;
  destinations?: AgentDestination[] | Record<string, string>;
  destinationTimeout?: number;
  heartbeatInterval?: number;
  maxReconnectDelay?: number;
}

type Env = Record<string, string | undefined>;

export class AgentConfigError extends Error {}

function readFile(file: string): AgentConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new AgentConfigError(`Cannot read the agent configuration file ${file}: ${(err as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as AgentConfigFile;
  } catch (err) {
    throw new AgentConfigError(`${file} is not a JSON object: ${(err as Error).message}`);
  }
}

/** `lab=mllp://10.0.0.7:2575,printer=tcp://10.0.0.9:9100` */
function destinationsFromEnv(raw: string): AgentDestination[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq <= 0) throw new AgentConfigError(`AGENT_DESTINATIONS entries are name=url, got '${part}'`);
      return { name: part.slice(0, eq).trim(), url: part.slice(eq + 1).trim() };
    });
}

function destinationList(value: AgentConfigFile['destinations']): AgentDestination[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return Object.entries(value).map(([name, url]) => ({ name, url }));
}

function positive(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new AgentConfigError(`${name} must be a positive whole number of milliseconds, got '${value}'`);
  }
  return n;
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new AgentConfigError(`${name} is required`);
  return value;
}

/** The configuration from `configFile` (if any) and `env`. */
export function loadAgentConfig(env: Env = process.env, configFile = env.AGENT_CONFIG): AgentConfig {
  const file = configFile ? readFile(configFile) : {};
  const baseUrl = required('AGENT_BASE_URL (baseUrl)', env.AGENT_BASE_URL || file.baseUrl);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AgentConfigError(`AGENT_BASE_URL must be an http or https URL, got '${baseUrl}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentConfigError(`AGENT_BASE_URL must be an http or https URL, got '${baseUrl}'`);
  }
  const raw = env.AGENT_DESTINATIONS
    ? destinationsFromEnv(env.AGENT_DESTINATIONS)
    : destinationList(file.destinations);
  let destinations: ParsedDestination[];
  try {
    destinations = raw.map(parseDestination);
  } catch (err) {
    throw new AgentConfigError((err as Error).message);
  }
  const names = new Set<string>();
  for (const d of destinations) {
    if (names.has(d.name)) throw new AgentConfigError(`Destination '${d.name}' is configured twice`);
    names.add(d.name);
  }
  return {
    baseUrl: url.href.endsWith('/') ? url.href : url.href + '/',
    clientId: required('AGENT_CLIENT_ID (clientId)', env.AGENT_CLIENT_ID || file.clientId),
    clientSecret: required(
      'AGENT_CLIENT_SECRET (clientSecret)',
      env.AGENT_CLIENT_SECRET || file.clientSecret,
    ),
    agentId: required('AGENT_ID (agentId)', env.AGENT_ID || file.agentId),
    destinations,
    destinationTimeout: positive(
      'AGENT_DESTINATION_TIMEOUT',
      env.AGENT_DESTINATION_TIMEOUT || file.destinationTimeout,
      10_000,
    ),
    heartbeatInterval: positive(
      'AGENT_HEARTBEAT_INTERVAL',
      env.AGENT_HEARTBEAT_INTERVAL || file.heartbeatInterval,
      10_000,
    ),
    maxReconnectDelay: positive(
      'AGENT_MAX_RECONNECT_DELAY',
      env.AGENT_MAX_RECONNECT_DELAY || file.maxReconnectDelay,
      30_000,
    ),
  };
}
