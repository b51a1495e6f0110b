// The demo's pregnancy care plans: the clinic's template (PlanDefinition) stored once, then applied
// with PlanDefinition/$apply's own code for every patient of the project who has an estimated due
// date and no CarePlan from the template yet. Idempotent: a clinic seeded before the template
// existed gets it (and its patients their plans) on the next start.
import type { CarePlan, Observation, PlanDefinition } from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../fhir/search/parse';
import { applyPlanDefinition, ESTIMATED_DUE_DATE_CODE } from '../operations/plan-definition-apply';
import type { Repository } from '../repo';
import { buildPregnancyPlanDefinition, PREGNANCY_PLAN_URL } from './demo/pregnancy-plan';

export async function ensurePregnancyCarePlans(projectRepo: Repository): Promise<CarePlan[]> {
  const project = projectRepo.context.project;
  if (!project) throw new Error('ensurePregnancyCarePlans needs a repository of one project');
  const template =
    (await projectRepo.findMatching<PlanDefinition>(
      'PlanDefinition',
      `url=${PREGNANCY_PLAN_URL}&_project=${project}`,
    )) ?? (await projectRepo.createResource(buildPregnancyPlanDefinition()));
  const { resources: dueDates } = await projectRepo.search<Observation>(
    parseSearchRequest(`Observation?code=${ESTIMATED_DUE_DATE_CODE}&_project=${project}&_count=1000`),
  );
  const patients = new Set(
    dueDates.map((o) => o.subject?.reference).filter((r): r is string => !!r?.startsWith('Patient/')),
  );
  const created: CarePlan[] = [];
  for (const patient of [...patients].sort()) {
    const existing = await projectRepo.findMatching<CarePlan>(
      'CarePlan',
      `subject=${patient}&instantiates-canonical=${PREGNANCY_PLAN_URL}`,
    );
    if (!existing) created.push(await applyPlanDefinition(projectRepo, template.id as string, patient));
  }
  return created;
}
