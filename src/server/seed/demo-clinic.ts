// Seeds the demo clinic on first start. The whole clinic (the Project and the
// transaction Bundle of ./demo) is written in one database transaction through the same
// transaction processing as POST /fhir/R4 with a transaction Bundle, so it passes the same
// validation as any write and either all of it is stored or none. Idempotent: when the demo Project
// exists already, nothing is written but the Project features and the access policies it has gained
// since (patient-policy-upgrade.ts).
import crypto from 'node:crypto';
import type { Project } from '@medplum/fhirtypes';
import { buildDemoClinic, buildDemoProject, DEMO_PROJECT_IDENTIFIER } from './demo';
import { processBatch } from '../fhir/batch';
import type { Repository } from '../repo';
import { seedDemoAccounts } from './demo-accounts';
import { upgradePatientAccessPolicy, upgradeStaffMemberships } from './patient-policy-upgrade';
import { ensurePregnancyCarePlans } from './pregnancy-care-plans';

export interface SeedOptions {
  /** The seeding day that the demo's relative dates count from; now by default. */
  today?: Date;
  /** Password of the demo accounts (stored hashed on their Users); DEMO_PASSWORD or 'bloom-demo' when absent. */
  demoPassword?: string;
  /** The app's origins, for the redirect URIs of the seeded 'Bloom app' ClientApplication. */
  appOrigins?: readonly string[];
}

export interface SeedResult {
  /** False when the demo clinic existed already and nothing was written. */
  seeded: boolean;
  /** The id of the demo Project (new or existing); every seeded resource carries it as meta.project. */
  projectId: string;
}

/** Base for the (unused) response URLs of the seed's transaction. */
const SEED_FHIR_BASE = '/fhir/R4/';

export async function seedDemoClinic(repo: Repository, options: SeedOptions = {}): Promise<SeedResult> {
  const identifier = `identifier=${DEMO_PROJECT_IDENTIFIER.system}|${DEMO_PROJECT_IDENTIFIER.value}`;
  return repo.withTransaction(async (txRepo) => {
    // findMatching holds a lock until commit: two servers starting together seed once.
    const existing = await txRepo.findMatching<Project>('Project', identifier);
    if (existing?.id) {
      // Only the Project's features are compared: the clinic's Bundle is built when it is seeded.
      await addMissingFeatures(txRepo, existing, buildDemoProject().features ?? []);
      await upgradePatientAccessPolicy(txRepo, existing);
      await upgradeStaffMemberships(txRepo.withContext({ ...repo.context, project: existing.id }), existing);
      await ensurePregnancyCarePlans(txRepo.withContext({ ...repo.context, project: existing.id }));
      return { seeded: false, projectId: existing.id };
    }
    const { project, bundle } = buildDemoClinic(options.today ?? new Date());
    // The Project's id is chosen first so that it and every clinic resource carry it as meta.project.
    const projectId = crypto.randomUUID();
    const projectRepo = txRepo.withContext({ ...repo.context, project: projectId });
    const storedProject = await projectRepo.createResource(project, { assignedId: projectId });
    const response = await processBatch(projectRepo, SEED_FHIR_BASE, bundle);
    // The clinic's pregnancy care template, applied to each patient with a due date ($apply's code).
    await ensurePregnancyCarePlans(projectRepo);
    // The sign-ins of the demo accounts, in the same transaction as the clinic.
    await seedDemoAccounts(projectRepo, storedProject, bundle, response, options);
    return { seeded: true, projectId };
  });
}

/**
 * A clinic seeded before a feature joined the demo Project gets it on the next start (Medplum's
 * components go live only with 'websocket-subscriptions'); features an admin added stay.
 */
async function addMissingFeatures(
  repo: Repository,
  existing: Project,
  features: NonNullable<Project['features']>,
): Promise<void> {
  const missing = features.filter((feature) => !existing.features?.includes(feature));
  if (missing.length > 0) {
    await repo.updateResource<Project>({ ...existing, features: [...(existing.features ?? []), ...missing] });
  }
}
