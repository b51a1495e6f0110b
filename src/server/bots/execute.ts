// One bot execution: the code from its Binary, run in the sandbox as the bot's own
// membership, then an AuditEvent with the outcome, the duration (period), who ran it and the
// captured console output. Limits: Bot.timeout (seconds) and the memory-limit extension per bot.
import type {
  AuditEvent,
  AuditEventAgent,
  AuditEventEntity,
  Bot,
  OperationOutcome,
} from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest } from '../../fhir';
import type { BinaryStorage } from '../binary/storage';
import type { Database } from '../db';
import { Repository, systemContext } from '../repo';
import type { RepositoryContext } from '../repo';
import { botContext } from './bot-membership';
import { createBotHost } from './bot-host';
import { loadBotCode } from './code-store';
import { runInSandbox } from './sandbox';
import type { SandboxResult } from './sandbox';

export const BOT_MEMORY_LIMIT_URL = 'https://bloom.example/fhir/StructureDefinition/bot-memory-limit-mb';
export const DEFAULT_BOT_TIMEOUT_SECONDS = 10;
export const DEFAULT_BOT_MEMORY_MB = 64;

export interface BotExecutionDeps {
  db: Database;
  storage: BinaryStorage;
  fhirBase: string;
}

export interface BotExecutionRequest {
  bot: Bot;
  caller: RepositoryContext;
  input: unknown;
  contentType: string;
  /** Recorded in the AuditEvent too: what triggered the run (a Subscription and its resource). */
  audit?: ExecutionAudit;
  /**
   * Whom the bot's `medplum` acts as; the bot's own membership when absent. A CDS service runs as its
   * caller (as Medplum's cds-services), so it reads only what the caller may read.
   */
  runAs?: RepositoryContext;
}

export interface ExecutionAudit {
  entity?: AuditEventEntity[];
  /** A line put before the console output (e.g. which attempt this was). */
  note?: string;
}

export type BotExecutionResult =
  { ok: true; output: unknown; contentType?: string } | { ok: false; outcome: OperationOutcome };

function limitsOf(bot: Bot): { timeoutMs: number; memoryBytes: number } {
  const seconds =
    typeof bot.timeout === 'number' && bot.timeout > 0 ? bot.timeout : DEFAULT_BOT_TIMEOUT_SECONDS;
  const memory = bot.extension?.find((e) => e.url === BOT_MEMORY_LIMIT_URL)?.valueInteger;
  const megabytes = typeof memory === 'number' && memory > 0 ? memory : DEFAULT_BOT_MEMORY_MB;
  return { timeoutMs: seconds * 1000, memoryBytes: megabytes * 1024 * 1024 };
}

/** The outcome a failed run answers: what stopped it, in words a bot author can act on. */
export function failureOutcome(result: Extract<SandboxResult, { ok: false }>, bot: Bot): OperationOutcome {
  const { timeoutMs, memoryBytes } = limitsOf(bot);
  const text =
    result.reason === 'timeout'
      ? `Bot execution stopped: it ran longer than its time limit of ${timeoutMs / 1000} s`
      : result.reason === 'memory'
        ? `Bot execution stopped: it exceeded its memory limit of ${memoryBytes / 1024 / 1024} MB (${result.error})`
        : `Bot execution failed: ${result.error}`;
  const code =
    result.reason === 'timeout' ? 'timeout' : result.reason === 'memory' ? 'too-costly' : 'processing';
  // 400 for all three: the bot's code failed, not the server.
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, details: { text } }] };
}

export async function executeBot(
  deps: BotExecutionDeps,
  request: BotExecutionRequest,
): Promise<BotExecutionResult> {
  const { bot } = request;
  if (!bot.executableCode) {
    throw new OperationOutcomeError(badRequest('The bot has no executable code: deploy it first'));
  }
  const runAs = request.runAs ?? (await botContext(deps.db, bot));
  const botRepo = new Repository(deps.db, runAs);
  // The code is the server's to load: the bot's own policy need not grant it Binary reads.
  const code = await loadBotCode(
    new Repository(deps.db, systemContext(bot.meta?.project)),
    deps.storage,
    bot.executableCode,
  );
  const started = new Date();
  const result = await runInSandbox({
    code,
    event: {
      bot: { reference: `Bot/${bot.id}`, display: bot.name },
      input: request.input,
      contentType: request.contentType,
      secrets: {},
      requester: request.caller.access?.profile ?? request.caller.author,
    },
    host: createBotHost(botRepo, deps.fhirBase),
    ...limitsOf(bot),
  });
  const ended = new Date();
  await recordExecution(deps.db, bot, request.caller, result, started, ended, request.audit);
  return result.ok
    ? { ok: true, output: result.output, ...(result.contentType ? { contentType: result.contentType } : {}) }
    : { ok: false, outcome: failureOutcome(result, bot) };
}

/** AuditEvent outcome codes: 0 success, 4 minor failure (the bot's error). */
export async function recordExecution(
  db: Database,
  bot: Bot,
  caller: RepositoryContext,
  result: SandboxResult,
  started: Date,
  ended: Date,
  audit: ExecutionAudit = {},
): Promise<void> {
  const botRef: AuditEventAgent['who'] = { reference: `Bot/${bot.id}`, display: bot.name };
  const who = (caller.access?.profile ?? caller.author) as AuditEventAgent['who'];
  const log = [
    ...(audit.note ? [audit.note] : []),
    ...result.logs,
    ...(result.ok ? [] : [result.error]),
  ].join('\n');
  await new Repository(db, systemContext(bot.meta?.project)).createResource<AuditEvent>({
    resourceType: 'AuditEvent',
    type: {
      system: 'http://terminology.hl7.org/CodeSystem/audit-event-type',
      code: 'rest',
      display: 'RESTful Operation',
    },
    subtype: [{ system: 'http://hl7.org/fhir/restful-interaction', code: 'execute', display: '$execute' }],
    action: 'E',
    recorded: ended.toISOString(),
    period: { start: started.toISOString(), end: ended.toISOString() },
    outcome: result.ok ? '0' : '4',
    ...(log ? { outcomeDesc: log } : {}),
    agent: [
      { who, requestor: true },
      { who: botRef, requestor: false },
    ],
    source: { observer: botRef as AuditEvent['source']['observer'] },
    entity: [{ what: botRef }, ...(audit.entity ?? [])],
  });
}
