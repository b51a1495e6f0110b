// Conditional update `PUT {type}?search` and conditional delete `DELETE {type}?search` (FHIR R4
// §3.1.0.4.3 and §3.1.0.7.1; MedplumClient.upsertResource, SPEC §7). The match and the
// write share one transaction, and Repository.findMatching holds the same per-type lock as
// conditional create, so two concurrent upserts with the same criteria cannot both create.
import type { Resource } from '@medplum/fhirtypes';
import {
  allOk,
  badRequest,
  conflict,
  getStatus,
  OperationOutcomeError,
  preconditionFailed,
} from '../../fhir';
import type { Repository } from '../repo';
import type { FhirResult } from './interactions';
import { checkUrlResourceType, requireResourceBody, updateInteraction } from './interactions';

/** Runs the match, turning "more than one" into a 412 that names this interaction. */
async function findOne<T extends Resource>(
  repo: Repository,
  type: string,
  criteria: string,
  interaction: string,
): Promise<T | undefined> {
  if (!criteria) {
    throw new OperationOutcomeError(badRequest(`${interaction} needs search parameters in the URL`));
  }
  try {
    return await repo.findMatching<T>(type, criteria);
  } catch (err) {
    if (err instanceof OperationOutcomeError && getStatus(err.outcome) === 412) {
      throw new OperationOutcomeError(
        preconditionFailed(`${interaction} matched more than one ${type}: ${criteria}`),
      );
    }
    throw err;
  }
}

/** Whether the caller can read a live resource with this id (deleted or unseen ones do not count). */
async function liveExists(repo: Repository, type: string, id: string): Promise<boolean> {
  try {
    await repo.readResource(type, id);
    return true;
  } catch (err) {
    if (err instanceof OperationOutcomeError && [404, 410].includes(getStatus(err.outcome))) {
      return false;
    }
    throw err;
  }
}

/**
 * No match: create (201; a body id is kept, unless a resource with that id already exists: 409).
 * One match: update it (200; a body id other than the match's is a 400). Several: 412.
 */
export async function conditionalUpdateInteraction(
  repo: Repository,
  type: string,
  criteria: string,
  body: unknown,
  ifMatch?: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  const resource = requireResourceBody(body, type);
  return repo.withTransaction(async (tx) => {
    const match = await findOne(tx, type, criteria, 'Conditional update');
    const bodyId = resource.id;
    if (match) {
      if (bodyId !== undefined && bodyId !== match.id) {
        throw new OperationOutcomeError(
          badRequest(
            `Resource id '${String(bodyId)}' does not match the matched ${type}/${match.id}`,
            `${type}.id`,
          ),
        );
      }
      return updateInteraction(tx, type, match.id as string, { ...resource, id: match.id }, ifMatch);
    }
    if (bodyId !== undefined && (await liveExists(tx, type, String(bodyId)))) {
      throw new OperationOutcomeError(
        conflict(`${type}/${String(bodyId)} exists but does not match the conditional update's criteria`),
      );
    }
    const id = bodyId === undefined ? crypto.randomUUID() : String(bodyId);
    return updateInteraction(tx, type, id, { ...resource, id }, ifMatch);
  });
}

/** No match: nothing to do (200 'All OK'). One match: delete it. Several: 412 (R4 lets a server refuse). */
export async function conditionalDeleteInteraction(
  repo: Repository,
  type: string,
  criteria: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  return repo.withTransaction(async (tx) => {
    const match = await findOne(tx, type, criteria, 'Conditional delete');
    if (match) {
      await tx.deleteResource(type, match.id as string);
    }
    return { status: 200, body: allOk };
  });
}
