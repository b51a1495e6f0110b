// A bot acts as its own ProjectMembership (as in Medplum): the membership's access
// policy, not the caller's, limits what the bot's FHIR client may read and write. The membership is
// created with the bot's first deploy or execution if an admin has not made one.
import type { Bot, ProjectMembership } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import { buildAuthState } from '../auth/authenticate';
import { systemRepo } from '../services';
import type { RepositoryContext } from '../repo';
import { findMembershipsByUser } from '../repo/lookups';

export async function ensureBotMembership(db: Database, bot: Bot): Promise<ProjectMembership> {
  const botRef = `Bot/${bot.id}`;
  const existing = (await findMembershipsByUser(db, botRef))[0];
  if (existing) {
    return existing;
  }
  const project = bot.meta?.project;
  if (!project) {
    throw new OperationOutcomeError(
      badRequest('The bot belongs to no project, so it has no membership to run as'),
    );
  }
  return systemRepo(db).createResource<ProjectMembership>({
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${project}` },
    user: { reference: botRef, display: bot.name },
    profile: { reference: botRef, display: bot.name },
  });
}

/** The repository context the bot's code runs as. */
export async function botContext(db: Database, bot: Bot): Promise<RepositoryContext> {
  const membership = await ensureBotMembership(db, bot);
  return (await buildAuthState(db, membership, {})).context;
}
