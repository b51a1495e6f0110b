// The FHIR operations a bot may call with its client's post(fhirUrl(...), body), as MedplumClient
// bots do: the URL is read relative to the server's FHIR base and each operation runs through the
// Repository as the bot's membership, as its own route would for a user. Only operations listed
// here; anything else is a 400 naming what is supported.
import { badRequest, OperationOutcomeError } from '../../fhir';
import { applyWithInput } from '../operations/plan-definition-apply';
import type { Repository } from '../repo';

const ID = '[A-Za-z0-9\\-.]{1,64}';
const OPERATIONS: ReadonlyArray<{
  pattern: RegExp;
  run: (repo: Repository, id: string, body: unknown) => Promise<unknown>;
}> = [
  {
    pattern: new RegExp(`^PlanDefinition/(${ID})/\\$apply$`),
    run: (repo, id, body) => applyWithInput(repo, id, {}, body),
  },
];

/** The path after the FHIR base ('PlanDefinition/1/$apply'), from an absolute or relative URL. */
function fhirPath(url: string, fhirBase: string): string {
  const base = fhirBase.replace(/\/+$/, '');
  let path = url.startsWith(`${base}/`) ? url.slice(base.length + 1) : url;
  path = path.replace(/^\/+/, '').replace(/^fhir\/R4\//, '');
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

export async function postOperation(
  repo: Repository,
  fhirBase: string,
  url: string,
  body: unknown,
): Promise<unknown> {
  const path = fhirPath(url, fhirBase);
  for (const operation of OPERATIONS) {
    const match = operation.pattern.exec(path);
    if (match) return operation.run(repo, match[1], body);
  }
  throw new OperationOutcomeError(
    badRequest(`The bot client's post supports only PlanDefinition/{id}/$apply, not '${path}'`),
  );
}
