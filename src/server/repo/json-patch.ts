// RFC 6902 JSON Patch through fast-json-patch, with every operation checked before any is applied.
import type { Resource } from '@medplum/fhirtypes';
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, OperationOutcomeError } from '../../fhir';

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Checks the shape of a patch document; throws a 400 OperationOutcomeError naming the bad operation. */
export function parseJsonPatch(value: unknown): Operation[] {
  if (!Array.isArray(value)) {
    throw new OperationOutcomeError(badRequest('JSON Patch must be an array of operations'));
  }
  value.forEach((op: unknown, index) => {
    const candidate = op as { op?: unknown; path?: unknown } | null;
    if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
      throw new OperationOutcomeError(
        badRequest(`Invalid JSON Patch operation at index ${index}: not an object`),
      );
    }
    if (typeof candidate.op !== 'string' || !OPS.has(candidate.op)) {
      throw new OperationOutcomeError(
        badRequest(`Invalid JSON Patch operation at index ${index}: unknown op '${String(candidate.op)}'`),
      );
    }
    if (typeof candidate.path !== 'string') {
      throw new OperationOutcomeError(
        badRequest(`Invalid JSON Patch operation at index ${index}: missing path`),
      );
    }
    const problem = pointerProblem(candidate.op, candidate.path, (op as { from?: unknown }).from);
    if (problem) {
      throw new OperationOutcomeError(
        badRequest(`Invalid JSON Patch operation at index ${index}: ${problem}`),
      );
    }
  });
  return value as Operation[];
}

// Members every object inherits: a pointer through them would reach (or replace) a prototype.
const FORBIDDEN_MEMBERS = new Set(['__proto__', 'constructor', 'prototype']);

function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RFC 6901 pointers only, none through a prototype member, and no move of a value into itself. */
function pointerProblem(op: string, path: string, from: unknown): string | undefined {
  const pointers: [string, string][] = [['path', path]];
  if (op === 'move' || op === 'copy') {
    if (typeof from !== 'string') {
      return `'${op}' needs a from pointer`;
    }
    pointers.push(['from', from]);
  }
  for (const [name, pointer] of pointers) {
    if (pointer !== '' && !pointer.startsWith('/')) {
      return `${name} '${pointer.slice(0, 100)}' is not a JSON pointer (it must start with '/')`;
    }
    const member = pointerSegments(pointer).find((segment) => FORBIDDEN_MEMBERS.has(segment));
    if (member) {
      return `${name} may not name the member '${member}'`;
    }
  }
  // RFC 6902 4.4: the from location MUST NOT be a proper prefix of the path location.
  if (op === 'move' && typeof from === 'string' && path.startsWith(`${from}/`)) {
    return `cannot move '${from.slice(0, 100)}' into its own child '${path.slice(0, 100)}'`;
  }
  return undefined;
}

/** Applies a patch to a copy of the resource; a failed `test` or a bad path is a 400. */
export function applyJsonPatch<T extends Resource>(resource: T, patch: readonly Operation[]): T {
  const problem = jsonpatch.validate([...patch], resource);
  if (problem) {
    throw new OperationOutcomeError(badRequest(`Invalid JSON Patch: ${describePatchError(problem)}`));
  }
  try {
    return jsonpatch.applyPatch(resource, [...patch], true, false).newDocument;
  } catch (err) {
    throw new OperationOutcomeError(badRequest(`Invalid JSON Patch: ${describePatchError(err)}`));
  }
}

function describePatchError(err: unknown): string {
  if (err instanceof jsonpatch.JsonPatchError) {
    // The library's message repeats the whole operation and document; its name says what went wrong.
    const where = err.index === undefined ? '' : ` at index ${err.index}`;
    return `${err.name.replace(/_/g, ' ').toLowerCase()}${where}`;
  }
  return err instanceof Error ? err.message.split('\n')[0] : String(err);
}
