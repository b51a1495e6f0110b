// The agent WebSocket protocol, shared by the server (src/server/agents) and the
// agent program (src/agent). Messages are JSON objects with a `type`, named and shaped as Medplum's
// (@medplum/core AgentMessage), so Medplum's agent could connect to our server and ours to theirs:
//   agent → server  agent:connect:request {accessToken, agentId}     server → agent:connect:response
//   server → agent  agent:transmit:request {remote, contentType, body, callback?}
//   agent → server  agent:transmit:response {callback, remote, contentType, statusCode, body}
//   either way      agent:heartbeat:request → agent:heartbeat:response {version}
//   either way      agent:error {body, callback?}
// Bloom's additions, which Medplum ignores: the connect request may list the agent's destinations
// (so the server can refuse an unknown one before sending anything).

export const AGENT_WS_PATH = '/ws/agent';

/** Medplum's content types for HL7 v2 and for a reachability check. */
export const HL7_V2_CONTENT_TYPE = 'x-application/hl7-v2+er7';
export const PING_CONTENT_TYPE = 'x-application/ping';

/** A destination the agent can reach: a name, and an mllp:// or tcp:// URL on its network. */
export interface AgentDestination {
  name: string;
  url: string;
}

interface BaseMessage {
  type: string;
  callback?: string;
}

export interface AgentConnectRequest extends BaseMessage {
  type: 'agent:connect:request';
  accessToken: string;
  agentId: string;
  /** Bloom: the destinations this agent forwards to. */
  destinations?: AgentDestination[];
}

export interface AgentConnectResponse extends BaseMessage {
  type: 'agent:connect:response';
}

export interface AgentHeartbeatRequest extends BaseMessage {
  type: 'agent:heartbeat:request';
}

export interface AgentHeartbeatResponse extends BaseMessage {
  type: 'agent:heartbeat:response';
  version: string;
}

export interface AgentTransmitRequest extends BaseMessage {
  type: 'agent:transmit:request';
  /** Where the agent sends the body: a destination's name or URL. */
  remote: string;
  contentType: string;
  body: string;
  channel?: string;
  /** Medplum: 'first' ACK (default) or 'application' (skip commit ACKs). */
  returnAck?: 'first' | 'application';
}

export interface AgentTransmitResponse extends BaseMessage {
  type: 'agent:transmit:response';
  remote: string;
  contentType: string;
  statusCode?: number;
  body: string;
  channel?: string;
}

export interface AgentErrorMessage extends BaseMessage {
  type: 'agent:error';
  body: string;
}

export type AgentMessage =
  | AgentConnectRequest
  | AgentConnectResponse
  | AgentHeartbeatRequest
  | AgentHeartbeatResponse
  | AgentTransmitRequest
  | AgentTransmitResponse
  | AgentErrorMessage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDestinationList(value: unknown): value is AgentDestination[] {
  return (
    Array.isArray(value) &&
    value.every((d) => isRecord(d) && typeof d.name === 'string' && typeof d.url === 'string')
  );
}

/**
 * A received text as a message, or a reason it is not one. Only the fields each type needs are
 * checked; unknown types are returned as such for the receiver to answer.
 */
export function parseAgentMessage(
  text: string,
): { ok: true; message: AgentMessage } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Messages must be JSON' };
  }
  if (!isRecord(value) || typeof value.type !== 'string') {
    return { ok: false, error: 'Messages must be JSON objects with a type' };
  }
  if (value.callback !== undefined && typeof value.callback !== 'string') {
    return { ok: false, error: 'callback must be a string' };
  }
  const str = (name: string): boolean => typeof value[name] === 'string';
  switch (value.type) {
    case 'agent:connect:request':
      if (!str('accessToken') || !str('agentId')) {
        return { ok: false, error: 'agent:connect:request needs accessToken and agentId' };
      }
      if (value.destinations !== undefined && !isDestinationList(value.destinations)) {
        return { ok: false, error: 'destinations must be a list of {name, url}' };
      }
      break;
    case 'agent:transmit:request':
      if (!str('remote') || !str('contentType') || !str('body')) {
        return { ok: false, error: 'agent:transmit:request needs remote, contentType and body' };
      }
      break;
    case 'agent:transmit:response':
      if (!str('contentType') || !str('body')) {
        return { ok: false, error: 'agent:transmit:response needs contentType and body' };
      }
      if (value.statusCode !== undefined && typeof value.statusCode !== 'number') {
        return { ok: false, error: 'statusCode must be a number' };
      }
      break;
    case 'agent:error':
      if (!str('body')) return { ok: false, error: 'agent:error needs a body' };
      break;
    case 'agent:connect:response':
    case 'agent:heartbeat:request':
    case 'agent:heartbeat:response':
      break;
    default:
      return { ok: false, error: `Unknown message type: ${String(value.type).slice(0, 100)}` };
  }
  return { ok: true, message: value as unknown as AgentMessage };
}
