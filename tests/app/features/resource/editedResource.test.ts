// The Edit tab's check of the text before a save (SPEC §2 generic pages, §8 messages): one JSON object
// of the same resource, its resourceType and id unchanged; everything else is the server's to judge.
import type { AccessPolicy } from '@medplum/fhirtypes';
import { editedResource } from '../../../../src/app/features/resource/editedResource';

const policy: AccessPolicy = { resourceType: 'AccessPolicy', id: 'p1', name: 'Bloom admin' };

describe('editedResource', () => {
  it('accepts the same resource with other fields changed', () => {
    const text = JSON.stringify({ ...policy, name: 'Renamed', resource: [{ resourceType: 'Patient' }] });
    expect(editedResource(text, policy)).toEqual({
      ok: true,
      resource: { ...policy, name: 'Renamed', resource: [{ resourceType: 'Patient' }] },
    });
  });

  it('refuses text that is not JSON, not one object, or another resource', () => {
    expect(editedResource('{ "resourceType": ', policy)).toEqual({
      ok: false,
      problem: expect.stringMatching(/^Not valid JSON: /),
    });
    expect(editedResource('[]', policy)).toEqual({
      ok: false,
      problem: 'The JSON must be one object, the resource.',
    });
    expect(editedResource('null', policy)).toEqual({
      ok: false,
      problem: 'The JSON must be one object, the resource.',
    });
    expect(editedResource(JSON.stringify({ ...policy, resourceType: 'Patient' }), policy)).toEqual({
      ok: false,
      problem: 'resourceType must stay "AccessPolicy".',
    });
    expect(editedResource(JSON.stringify({ ...policy, id: 'p2' }), policy)).toEqual({
      ok: false,
      problem: 'id must stay "p1".',
    });
    const { id: _dropped, ...withoutId } = policy;
    expect(editedResource(JSON.stringify(withoutId), policy)).toEqual({
      ok: false,
      problem: 'id must stay "p1".',
    });
  });
});
