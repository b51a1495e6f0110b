// What the JSON editor of the generic resource page may send: the text must be a JSON object of the
// same resource (its resourceType and id unchanged, so a save never moves or renames it). What the
// server then refuses (validation, access policy, a newer version) it says itself.
import type { Resource } from '@medplum/fhirtypes';

export type EditedResource =
  { readonly ok: true; readonly resource: Resource } | { readonly ok: false; readonly problem: string };

export function editedResource(text: string, original: Resource): EditedResource {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'The JSON must be one object, the resource.' };
  }
  const edited = value as Partial<Resource>;
  if (edited.resourceType !== original.resourceType) {
    return { ok: false, problem: `resourceType must stay "${original.resourceType}".` };
  }
  if (edited.id !== original.id) {
    return { ok: false, problem: `id must stay "${original.id ?? ''}".` };
  }
  return { ok: true, resource: edited as Resource };
}
