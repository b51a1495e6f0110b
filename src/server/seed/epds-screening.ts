// The demo clinic's EPDS screening: the Edinburgh Postnatal Depression Scale Questionnaire, the Bot
// that scores each response (src/server/bots/epds) with its code in the Binary store, and the
// Subscription that runs the bot on each response to the scale. Run on every start after the
// clinic's seed: what is missing is added (a clinic seeded before the screening existed gets it),
// and the bot's code is deployed again when the built bot differs from the stored one.
import type { Bot, Project, Questionnaire, Subscription } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../fhir/screening/epds';
import type { BinaryStorage } from '../binary/storage';
import { readEpdsBotCode } from '../bots/epds/epds-bot-bundle';
import { loadBotCode, saveBotCode } from '../bots/code-store';
import type { Repository } from '../repo';
import { DEMO_PROJECT_IDENTIFIER } from './demo';
import { buildEpdsQuestionnaire } from './demo/epds-questionnaire';

export const EPDS_BOT_IDENTIFIER = { system: 'https://bloom.example/fhir/bot', value: 'epds-scoring' };
/** What the Subscription listens to: every response to the scale (the bot scores the completed ones). */
export const EPDS_SUBSCRIPTION_CRITERIA = `QuestionnaireResponse?questionnaire=${EPDS_QUESTIONNAIRE_URL}`;

export interface EpdsScreeningResult {
  questionnaireId: string;
  botId: string;
  subscriptionId: string;
}

/** Undefined when there is no demo clinic (SEED_DEMO off). */
export async function seedEpdsScreening(
  repo: Repository,
  storage: BinaryStorage,
  today: Date = new Date(),
): Promise<EpdsScreeningResult | undefined> {
  const project = await repo.findMatching<Project>(
    'Project',
    `identifier=${DEMO_PROJECT_IDENTIFIER.system}|${DEMO_PROJECT_IDENTIFIER.value}`,
  );
  if (!project?.id) return undefined;
  const projectRepo = repo.withContext({ ...repo.context, project: project.id });

  const questionnaire =
    (await projectRepo.findMatching<Questionnaire>('Questionnaire', `url=${EPDS_QUESTIONNAIRE_URL}`)) ??
    (await projectRepo.createResource<Questionnaire>(
      buildEpdsQuestionnaire(new Date(today.getTime() - 365 * 86_400_000).toISOString()),
    ));

  const identifier = `${EPDS_BOT_IDENTIFIER.system}|${EPDS_BOT_IDENTIFIER.value}`;
  let bot =
    (await projectRepo.findMatching<Bot>('Bot', `identifier=${identifier}`)) ??
    (await projectRepo.createResource<Bot>({
      resourceType: 'Bot',
      name: 'EPDS scoring',
      identifier: [EPDS_BOT_IDENTIFIER],
      description:
        'Scores each completed Edinburgh Postnatal Depression Scale response (Observation LOINC 99046-5) and, ' +
        'on a total of 13 or more or any positive answer to item 10, raises a Flag and an urgent ' +
        'Communication to the patient’s general practitioner.',
    }));
  const code = readEpdsBotCode();
  const stored = bot.executableCode
    ? await loadBotCode(projectRepo, storage, bot.executableCode).catch(() => '')
    : '';
  if (stored !== code) {
    const executableCode = await saveBotCode(projectRepo, storage, code, 'epds-scoring-bot.js');
    bot = (await projectRepo.updateResource<Bot>({ ...bot, executableCode })).resource;
  }

  const subscription =
    (await projectRepo.findMatching<Subscription>('Subscription', `url=Bot/${bot.id}`)) ??
    (await projectRepo.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'Score each Edinburgh Postnatal Depression Scale response and raise a positive screen',
      criteria: EPDS_SUBSCRIPTION_CRITERIA,
      channel: { type: 'rest-hook', endpoint: `Bot/${bot.id}` },
    }));
  return {
    questionnaireId: questionnaire.id as string,
    botId: bot.id as string,
    subscriptionId: subscription.id as string,
  };
}
