// The demo clinic's EPDS screening: the Edinburgh Postnatal Depression Scale Questionnaire, the Bot
// that scores each response (src/server/bots/epds) with its code in the Binary store, and the
// Subscription that runs the bot on each response to the scale. Run on every start after the
// clinic's seed: what is missing is added (a clinic seeded before the screening existed gets it),
// and the bot's code is deployed again when the built bot differs from the stored one.
import type { Project, Questionnaire } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../fhir/screening/epds';
import type { BinaryStorage } from '../binary/storage';
import { readEpdsBotCode } from '../bots/epds/epds-bot-bundle';
import type { Repository } from '../repo';
import { DEMO_PROJECT_IDENTIFIER } from './demo';
import { buildEpdsQuestionnaire } from './demo/epds-questionnaire';
import { ensureSubscribedBot } from './subscribed-bot';

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

  const bot = await ensureSubscribedBot(projectRepo, storage, {
    identifier: EPDS_BOT_IDENTIFIER,
    name: 'EPDS scoring',
    description:
      'Scores each completed Edinburgh Postnatal Depression Scale response (Observation LOINC 99046-5) and, ' +
      'on a total of 13 or more or any positive answer to item 10, raises a Flag and an urgent ' +
      'Communication to the patient’s general practitioner.',
    code: readEpdsBotCode(),
    fileName: 'epds-scoring-bot.js',
    reason: 'Score each Edinburgh Postnatal Depression Scale response and raise a positive screen',
    criteria: EPDS_SUBSCRIPTION_CRITERIA,
  });
  return { questionnaireId: questionnaire.id as string, ...bot };
}
