// A seeded Bot that a Subscription runs (the demo clinic's EPDS scoring and care-plan bots): found by
// its identifier or created, its built code deployed again when it differs from the stored one, and
// its rest-hook Subscription added when missing. Safe to run on every start.
import type { Bot, Identifier, Subscription } from '@medplum/fhirtypes';
import type { BinaryStorage } from '../binary/storage';
import { loadBotCode, saveBotCode } from '../bots/code-store';
import type { Repository } from '../repo';

export interface SubscribedBotSpec {
  identifier: Identifier;
  name: string;
  description: string;
  /** The built bot's code, and the file name it is stored under. */
  code: string;
  fileName: string;
  /** The Subscription's reason and criteria. */
  reason: string;
  criteria: string;
}

export async function ensureSubscribedBot(
  projectRepo: Repository,
  storage: BinaryStorage,
  spec: SubscribedBotSpec,
): Promise<{ botId: string; subscriptionId: string }> {
  let bot =
    (await projectRepo.findMatching<Bot>(
      'Bot',
      `identifier=${spec.identifier.system}|${spec.identifier.value}`,
    )) ??
    (await projectRepo.createResource<Bot>({
      resourceType: 'Bot',
      name: spec.name,
      identifier: [spec.identifier],
      description: spec.description,
    }));
  const stored = bot.executableCode
    ? await loadBotCode(projectRepo, storage, bot.executableCode).catch(() => '')
    : '';
  if (stored !== spec.code) {
    const executableCode = await saveBotCode(projectRepo, storage, spec.code, spec.fileName);
    bot = (await projectRepo.updateResource<Bot>({ ...bot, executableCode })).resource;
  }
  const subscription =
    (await projectRepo.findMatching<Subscription>('Subscription', `url=Bot/${bot.id}`)) ??
    (await projectRepo.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: spec.reason,
      criteria: spec.criteria,
      channel: { type: 'rest-hook', endpoint: `Bot/${bot.id}` },
    }));
  return { botId: bot.id as string, subscriptionId: subscription.id as string };
}
