// The demo clinic's care-plan bot (src/server/bots/care-plan) with its code in the Binary store, and
// the Subscription that runs it when a pregnancy is registered (an Observation with the estimated
// due date or the last period, registration.ts), so each new pregnancy gets its CarePlan from the
// clinic's PlanDefinition. Run on every start after the clinic's seed (whose first run applied the
// template to the demo patients, registered before this Subscription existed): what is missing is
// added, and the bot's code is deployed again when the built bot differs from the stored one.
import type { Bot, Project, Subscription } from '@medplum/fhirtypes';
import type { BinaryStorage } from '../binary/storage';
import { readCarePlanBotCode } from '../bots/care-plan/care-plan-bot-bundle';
import { REGISTRATION_CRITERIA } from '../bots/care-plan/registration';
import { loadBotCode, saveBotCode } from '../bots/code-store';
import type { Repository } from '../repo';
import { DEMO_PROJECT_IDENTIFIER } from './demo';

export const CARE_PLAN_BOT_IDENTIFIER = { system: 'https://bloom.example/fhir/bot', value: 'care-plan' };

export interface CarePlanBotResult {
  botId: string;
  subscriptionId: string;
}

/** Undefined when there is no demo clinic (SEED_DEMO off). */
export async function seedCarePlanBot(
  repo: Repository,
  storage: BinaryStorage,
): Promise<CarePlanBotResult | undefined> {
  const project = await repo.findMatching<Project>(
    'Project',
    `identifier=${DEMO_PROJECT_IDENTIFIER.system}|${DEMO_PROJECT_IDENTIFIER.value}`,
  );
  if (!project?.id) return undefined;
  const projectRepo = repo.withContext({ ...repo.context, project: project.id });
  const identifier = `${CARE_PLAN_BOT_IDENTIFIER.system}|${CARE_PLAN_BOT_IDENTIFIER.value}`;
  let bot =
    (await projectRepo.findMatching<Bot>('Bot', `identifier=${identifier}`)) ??
    (await projectRepo.createResource<Bot>({
      resourceType: 'Bot',
      name: 'Pregnancy care plan',
      identifier: [CARE_PLAN_BOT_IDENTIFIER],
      description:
        "Applies the clinic's pregnancy-care PlanDefinition ($apply) when a pregnancy is registered " +
        '(an estimated due date or last period Observation), once per pregnancy.',
    }));
  const code = readCarePlanBotCode();
  const stored = bot.executableCode
    ? await loadBotCode(projectRepo, storage, bot.executableCode).catch(() => '')
    : '';
  if (stored !== code) {
    const executableCode = await saveBotCode(projectRepo, storage, code, 'care-plan-bot.js');
    bot = (await projectRepo.updateResource<Bot>({ ...bot, executableCode })).resource;
  }
  const subscription =
    (await projectRepo.findMatching<Subscription>('Subscription', `url=Bot/${bot.id}`)) ??
    (await projectRepo.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: "Apply the clinic's pregnancy care plan when a pregnancy is registered",
      criteria: REGISTRATION_CRITERIA,
      channel: { type: 'rest-hook', endpoint: `Bot/${bot.id}` },
    }));
  return { botId: bot.id as string, subscriptionId: subscription.id as string };
}
