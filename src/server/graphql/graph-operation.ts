// GET {type}/{id}/$graph?graph={name} (SPEC §7): the start resource and everything a stored
// GraphDefinition's links reach from it, as a collection Bundle. A link with a `path` follows the
// references found there (read through the request's loader, batched); a target with `params`
// searches for resources pointing back ('patient={ref}'). Every read and search is access-controlled
// like REST; what the caller may not see is left out. Each resource appears once.
import type {
  Bundle,
  GraphDefinition,
  GraphDefinitionLink,
  GraphDefinitionLinkTarget,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { badRequest, notFound, OperationOutcomeError } from '../../fhir';
import { parseSearchRequest } from '../../fhir/search/parse';
import { Operator } from '../../fhir/search/types';
import type { GraphQLContext } from './context';
import { referenceKey } from './reference-loader';

/** The most resources one $graph answer holds (a wide graph over a big record stops here). */
export const MAX_GRAPH_RESOURCES = 1000;

type GraphContext = Pick<GraphQLContext, 'loader' | 'search'>;

function keyOf(resource: Resource): string {
  return `${resource.resourceType}/${resource.id}`;
}

/** The stored GraphDefinition of that exact name, visible to the caller. */
export async function findGraphDefinition(context: GraphContext, name: string): Promise<GraphDefinition> {
  const result = await context.search({
    resourceType: 'GraphDefinition',
    filters: [{ code: 'name', operator: Operator.EXACT, value: name }],
    count: 2,
  });
  const graph = result.resources.find((resource) => (resource as GraphDefinition).name === name);
  if (!graph) {
    throw new OperationOutcomeError({
      ...notFound,
      issue: [{ ...notFound.issue![0], details: { text: `GraphDefinition '${name}' not found` } }],
    });
  }
  return graph as GraphDefinition;
}

function evaluatePath(resource: Resource, path: string): unknown[] {
  try {
    return fhirpath.evaluate(resource, path, undefined, r4Model) as unknown[];
  } catch (err) {
    throw new OperationOutcomeError(
      badRequest(`GraphDefinition link path '${path}' is invalid: ${(err as Error).message}`),
    );
  }
}

class GraphWalk {
  readonly found = new Map<string, Resource>();

  constructor(private readonly context: GraphContext) {}

  /** Adds what is new; answers only the new ones (their links are followed once). */
  private add(resources: (Resource | undefined)[], targetType: string | undefined): Resource[] {
    const added: Resource[] = [];
    for (const resource of resources) {
      if (
        !resource ||
        (targetType && resource.resourceType !== targetType) ||
        this.found.has(keyOf(resource))
      ) {
        continue;
      }
      if (this.found.size >= MAX_GRAPH_RESOURCES) {
        throw new OperationOutcomeError(
          badRequest(`The graph reaches more than ${MAX_GRAPH_RESOURCES} resources`),
        );
      }
      this.found.set(keyOf(resource), resource);
      added.push(resource);
    }
    return added;
  }

  private async follow(resource: Resource, link: GraphDefinitionLink): Promise<void> {
    const noTarget: GraphDefinitionLinkTarget = {} as GraphDefinitionLinkTarget;
    const targets = link.target?.length ? link.target : [noTarget];
    for (const target of targets) {
      let reached: Resource[];
      if (link.path) {
        const keys = evaluatePath(resource, link.path)
          .map((value) =>
            referenceKey((typeof value === 'string' ? { reference: value } : value) as Reference),
          )
          .filter((key): key is string => key !== undefined);
        // Hidden and missing targets are simply not in the answer, as in a REST _include.
        const loaded = await Promise.all(
          keys.map((key) => this.context.loader.load(key).catch(() => undefined)),
        );
        reached = this.add(loaded, target.type);
      } else if (target.type && target.params) {
        const query = new URLSearchParams(target.params.replaceAll('{ref}', keyOf(resource)));
        const request = parseSearchRequest({ resourceType: target.type, query });
        request.count = Math.min(request.count ?? MAX_GRAPH_RESOURCES, MAX_GRAPH_RESOURCES);
        reached = this.add((await this.context.search(request)).resources, target.type);
      } else {
        throw new OperationOutcomeError(
          badRequest('A GraphDefinition link needs a path, or a target with type and params'),
        );
      }
      await Promise.all(reached.map((next) => this.followAll(next, target.link)));
    }
  }

  async followAll(resource: Resource, links: GraphDefinitionLink[] | undefined): Promise<void> {
    for (const link of links ?? []) {
      await this.follow(resource, link);
    }
  }
}

export async function runGraph(
  context: GraphContext,
  graph: GraphDefinition,
  start: Resource,
): Promise<Bundle> {
  if (graph.start !== start.resourceType) {
    throw new OperationOutcomeError(
      badRequest(
        `GraphDefinition '${graph.name}' starts at ${graph.start}, not ${start.resourceType}`,
        'graph',
      ),
    );
  }
  const walk = new GraphWalk(context);
  walk.found.set(keyOf(start), start);
  await walk.followAll(start, graph.link);
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [...walk.found.values()].map((resource) => ({ resource })),
  };
}
