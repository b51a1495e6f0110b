// The demo clinic's care-plan bot (src/server/bots/care-plan) with its code in the Binary store, and
// the Subscription that runs it when a pregnancy is registered (an Observation with the estimated
// due date or the last period, registration.ts), so each new pregnancy gets its CarePlan from the
// clinic's PlanDefinition. Run on every start after the clinic's seed (whose first run applied the
// template to the demo patients, registered before this Subscription existed): what is missing is
// added, and the bot's code is deployed again when the built bot differs from the stored one.
import type { Project } from '@medplum/fhirtypes';
import type { BinaryStorage } from '../binary/storage';
import { readCarePlanBotCode } from '../bots/care-plan/care-plan-bot-bundle';
import { REGISTRATION_CRITERIA } from '../bots/care-plan/registration';
import type { Repository } from '../repo';
import { DEMO_PROJECT_IDENTIFIER } from './demo';
import { ensureSubscribedBot } from './subscribed-bot';

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
  return ensureSubscribedBot(projectRepo, storage, {
    identifier: CARE_PLAN_BOT_IDENTIFIER,
    name: 'Pregnancy care plan',
    description:
      "Applies the clinic's pregnancy-care PlanDefinition ($apply) when a pregnancy is registered " +
      '(an estimated due date or last period Observation), once per pregnancy.',
    code: readCarePlanBotCode(),
    fileName: 'care-plan-bot.js',
    reason: "Apply the clinic's pregnancy care plan when a pregnancy is registered",
    criteria: REGISTRATION_CRITERIA,
  });
}
