// Inbound messages (Medplum's agent channels): the agent listens on each of its
// Agent.channel endpoints (an Endpoint's mllp:// address on its network) and sends what arrives
// as agent:transmit:request with the channel's name; the server runs the channel's target bot
// (Agent.channel.targetReference) with the message as input, as the agent's client application,
// and answers with the bot's output, which the agent returns to the sender (the HL7 ACK).
import type { Agent, Bot } from '@medplum/fhirtypes';
import type { AgentTransmitRequest, AgentTransmitResponse } from '../../fhir/agent-protocol';
import { operationOutcomeToString } from '../../fhir';
import { executeBot } from '../bots/execute';
import type { BotExecutionDeps } from '../bots/execute';
import { decodeBotInput } from '../bots/input';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';

export async function runChannel(
  deps: BotExecutionDeps,
  caller: RepositoryContext,
  agentId: string,
  request: AgentTransmitRequest,
): Promise<AgentTransmitResponse> {
  const answer = (statusCode: number, body: string, contentType = 'text/plain'): AgentTransmitResponse => ({
    type: 'agent:transmit:response',
    ...(request.callback ? { callback: request.callback } : {}),
    channel: request.channel,
    remote: request.remote,
    contentType,
    statusCode,
    body,
  });
  const repo = new Repository(deps.db, caller);
  const agent = await repo.readResource<Agent>('Agent', agentId);
  const channel = agent.channel?.find((c) => c.name === request.channel);
  if (!request.channel || !channel) {
    return answer(404, `Agent/${agentId} has no channel '${request.channel ?? ''}'`);
  }
  const target = channel.targetReference?.reference ?? '';
  if (!target.startsWith('Bot/')) {
    return answer(400, `Channel '${channel.name}' has no target bot`);
  }
  let bot: Bot;
  try {
    bot = await repo.readResource<Bot>('Bot', target.slice('Bot/'.length));
  } catch {
    return answer(404, `${target} is not readable by the agent's client`);
  }
  const { input, contentType } = decodeBotInput(Buffer.from(request.body, 'utf8'), request.contentType);
  const result = await executeBot(deps, {
    bot,
    caller,
    input,
    contentType,
    audit: {
      entity: [{ what: { reference: `Agent/${agentId}` } }],
      note: `Agent/${agentId} channel '${channel.name}' from ${request.remote}`,
    },
  });
  if (!result.ok) {
    return answer(400, operationOutcomeToString(result.outcome));
  }
  const output = result.output;
  if (typeof output === 'string') return answer(200, output, result.contentType ?? request.contentType);
  return answer(200, JSON.stringify(output ?? null), 'application/json');
}
