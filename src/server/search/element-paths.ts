// Which element paths a search parameter's FHIRPath expression can read, for the load rate of
// indexing. Most expressions are plain paths (`Observation.code | Observation.component.code`,
// `Observation.subject.where(resolve() is Patient)`, `Patient.meta.tag`): when a resource has none
// of their elements they evaluate to nothing, so indexing skips the FHIRPath run, which dominated
// the write path's CPU time. Anything not provably a plain path (iif, exists(), operators, `%vars`,
// indexers) answers undefined: always evaluate. Over-matching only costs an evaluation.

import r4Model from 'fhirpath/fhir-context/r4';

/** Functions that map an empty input to an empty output whatever their arguments. */
const EMPTY_PRESERVING = new Set(['where', 'ofType', 'as', 'first', 'last', 'extension', 'resolve']);

/** Splits on `|` outside parentheses and string literals; undefined when unbalanced. */
function branches(expression: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quoted = false;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(expression.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0 || quoted) return undefined;
  out.push(expression.slice(start));
  return out;
}

/** Drops the arguments of every call (`where(system='phone')` → `where()`); undefined if unbalanced. */
function withoutArguments(branch: string): string | undefined {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < branch.length; i++) {
    const c = branch[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
      continue;
    }
    if (c === "'") {
      if (depth === 0) return undefined; // a literal outside any call: not a path
      quoted = true;
    } else if (c === '(') {
      // A call's '(' follows an identifier; a grouping '(' does not and keeps its content.
      const call = /[A-Za-z0-9_]$/.test(out);
      if (call || depth > 0) {
        if (depth === 0) out += '(';
        depth++;
        continue;
      }
      out += c;
    } else if (c === ')') {
      if (depth > 0) {
        depth--;
        if (depth === 0) out += ')';
        continue;
      }
      out += c;
    } else if (depth === 0) {
      out += c;
    }
  }
  return depth === 0 && !quoted ? out : undefined;
}

const IDENT = '[A-Za-z][A-Za-z0-9_]*';
const STEP = new RegExp(`^\\.(${IDENT})(\\(\\))?`);
const OF_TYPE = /\.ofType\(\s*([A-Za-z]+)\s*\)/g;

/** Element names from the input, and the type an `ofType(T)` right after them keeps. */
export interface ElementPath {
  names: string[];
  ofType?: string;
}

/**
 * The element names a plain-path branch walks before its first call (`Patient.telecom.where(…)` →
 * telecom; `Observation.meta.tag` → meta, tag), or undefined when the branch is not a plain path.
 * `resourceType` null reads a path relative to its input (`value.ofType(Quantity)`); a bare
 * `resourceType` (the root itself) is the empty path.
 */
function elementPath(branch: string, resourceType: string | null): ElementPath | undefined {
  // ofType(T) keeps its type through the argument stripping, as the call `ofType__T()`.
  let rest = withoutArguments(branch.replace(OF_TYPE, '.ofType__$1()'))?.replace(/\s+/g, ' ').trim();
  if (rest === undefined) return undefined;
  // `x as Type` is empty when x is; grouping parentheses change nothing on a path.
  rest = rest.replace(new RegExp(` as ${IDENT}(\\.${IDENT})*`, 'g'), '');
  rest = rest.replace(/^\(+/, '');
  if (resourceType !== null) {
    if (!rest.startsWith(resourceType)) return undefined;
    rest = rest.slice(resourceType.length);
    if (/^\)*$/.test(rest)) return { names: [] };
  } else {
    rest = `.${rest}`;
  }
  const path: ElementPath = { names: [] };
  let walking = true;
  while (rest.length > 0) {
    const step = STEP.exec(rest);
    if (!step) return undefined;
    if (step[2]) {
      const [name, type] = step[1].split('__');
      if (!EMPTY_PRESERVING.has(name)) return undefined;
      if (walking && name === 'ofType' && type) path.ofType = type;
      walking = false;
    } else if (walking) {
      if (step[1].startsWith('_')) return undefined;
      path.names.push(step[1]);
    }
    rest = rest.slice(step[0].length).replace(/^\)+/, '');
  }
  return path;
}

/**
 * The element paths an expression reads on a `resourceType` (each branch of a union; choice
 * elements by their stem: `value` for valueQuantity), or undefined when it may yield values
 * without them. `resourceType` null: a path relative to its input (a composite's component).
 */
export function elementPaths(expression: string, resourceType: string | null): ElementPath[] | undefined {
  const parts = branches(expression);
  if (!parts) return undefined;
  const paths: ElementPath[] = [];
  for (const part of parts) {
    const path = elementPath(part, resourceType);
    if (path === undefined) return undefined;
    paths.push(path);
  }
  return paths;
}

const model = r4Model as unknown as {
  path2Type: Record<string, string>;
  choiceTypePaths: Record<string, string[]>;
  type2Parent: Record<string, string>;
};

function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The model names types both ways (markdown → String, Age → Quantity): compare without case. */
function isKindOf(type: string, ancestor: string): boolean {
  let t: string | undefined = type;
  for (let depth = 0; t && depth < 10; depth++) {
    if (t.toLowerCase() === ancestor.toLowerCase()) return true;
    t =
      model.type2Parent[t] ??
      model.type2Parent[t.charAt(0).toLowerCase() + t.slice(1)] ??
      model.type2Parent[upperFirst(t)];
  }
  return false;
}

/**
 * The keys to look for on a resource of `resourceType`: `value.ofType(Quantity)` on the choice
 * element Observation.value[x] can only come from valueQuantity. Kept as the stem when the
 * element is no choice or another of its types is a kind of T (Age for Quantity).
 */
export function narrowedNames(resourceType: string, path: ElementPath): string[] {
  const { names, ofType } = path;
  if (!ofType || names.length === 0) return names;
  let owner = resourceType;
  for (const name of names.slice(0, -1)) {
    const type = model.path2Type[`${owner}.${name}`];
    if (!type) return names;
    owner = type === 'BackboneElement' || type === 'Element' ? `${owner}.${name}` : type;
  }
  const last = names[names.length - 1];
  const choices = model.choiceTypePaths[`${owner}.${last}`];
  if (!choices || !choices.some((choice) => choice.toLowerCase() === ofType.toLowerCase())) return names;
  if (choices.some((choice) => choice.toLowerCase() !== ofType.toLowerCase() && isKindOf(choice, ofType))) {
    return names;
  }
  return [...names.slice(0, -1), `${last}${upperFirst(ofType)}`];
}

function matchesName(key: string, name: string): boolean {
  if (key === name) return true;
  if (key.length <= name.length || !key.startsWith(name)) return false;
  const next = key.charCodeAt(name.length);
  return next >= 65 && next <= 90; // valueQuantity for `value`
}

function reaches(value: unknown, path: readonly string[], at: number): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some((item) => reaches(item, path, at));
  if (at === path.length) return true;
  if (typeof value !== 'object') return false;
  const name = path[at];
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('_')) {
      // A primitive's extension: fhirpath makes a node of it even without the value.
      if (matchesName(key.slice(1), name)) return true;
    } else if (matchesName(key, name) && reaches(child, path, at + 1)) {
      return true;
    }
  }
  return false;
}

/** Whether any of the paths leads to a value in `input` (choice stems match their typed keys). */
export function reachesAny(input: unknown, paths: readonly (readonly string[])[]): boolean {
  return paths.some((path) => reaches(input, path, 0));
}
