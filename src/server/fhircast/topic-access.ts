// Who may use a FHIRcast topic (SPEC §7 Remote context sync). FHIRcast's topic is one user's
// session: the apps of that user join it. So a topic belongs to the user whose call first used it
// (a subscribe, a publish or a sharing change) and to the profiles its owner shares it with; a topic
// named `bloom-{type}-{id}` (the app's per-user topic) belongs to that profile from the start, so
// nobody else can claim it. Patients use FHIRcast only when their access policy has an entry naming
// the `FHIRcast` type: `read` to read the context and subscribe, `create` to publish and share.
// Pure: routes.ts reads the topic's row and asks these rules.
import type { AccessPolicyResource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../fhir/outcomes';
import type { AccessContext } from '../access/context';

/** The AccessPolicy.resource.resourceType that grants FHIRcast (never covered by `*`). */
export const FHIRCAST_POLICY_TYPE = 'FHIRcast';

/** `read`: the current context, subscriptions and their sockets; `publish`: events and sharing. */
export type TopicUse = 'read' | 'publish';

export interface TopicCaller {
  project: string;
  /** The signed-in profile ('Practitioner/123'); the server's own author when there is no access. */
  profile: string;
  /** 'ProjectMembership/456'; absent for the server's own work. */
  membership?: string;
  /** Absent for the server's own work, which reaches every topic of its project. */
  access?: AccessContext;
}

export interface TopicOwnership {
  owner: string;
  owner_membership: string | null;
  shared_with: string[];
}

const RESERVED_TOPIC = /^bloom-([A-Z][A-Za-z]{1,63})-([A-Za-z0-9\-.]{1,64})$/;

/** The profile a `bloom-{type}-{id}` topic belongs to, or undefined for any other name. */
export function reservedOwner(topic: string): string | undefined {
  const match = RESERVED_TOPIC.exec(topic);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

export function forbiddenError(text: string): OperationOutcomeError {
  return new OperationOutcomeError({
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'forbidden', details: { text } }],
  });
}

function grants(entry: AccessPolicyResource, use: TopicUse): boolean {
  if (entry.resourceType !== FHIRCAST_POLICY_TYPE) return false;
  const interaction = use === 'read' ? 'read' : 'create';
  if (entry.interaction) return (entry.interaction as string[]).includes(interaction);
  return use === 'read' || entry.readonly !== true;
}

/** Why the caller's policy refuses FHIRcast for `use`, or undefined when it allows it. */
export function policyRefusal(access: AccessContext | undefined, use: TopicUse): string | undefined {
  // Only patients are held to a grant: a practitioner's (or a client's) topics are his own.
  if (!access?.patientCompartment) return undefined;
  if (access.policy.resource.some((entry) => grants(entry, use))) return undefined;
  return use === 'read'
    ? `Your access policy does not grant ${FHIRCAST_POLICY_TYPE} read`
    : `Your access policy does not grant ${FHIRCAST_POLICY_TYPE} create`;
}

/** The profile owning `topic`: its recorded owner, else the profile its reserved name names. */
export function ownerOf(topic: string, ownership: TopicOwnership | undefined): string | undefined {
  return ownership?.owner ?? reservedOwner(topic);
}

/**
 * Why the caller may not use `topic`, or undefined when he may: he owns it, it is shared with him,
 * or nobody owns it yet (his call then claims it).
 */
export function topicRefusal(
  topic: string,
  ownership: TopicOwnership | undefined,
  caller: TopicCaller,
): string | undefined {
  if (!caller.access) return undefined;
  const owner = ownerOf(topic, ownership);
  if (owner === undefined || owner === caller.profile) return undefined;
  if (ownership?.shared_with.includes(caller.profile)) return undefined;
  return `The FHIRcast topic ${topic} belongs to another user and is not shared with you`;
}

/** True when `subscriber` (a subscription's profile) may still hear the topic. */
export function mayHear(ownership: TopicOwnership | undefined, subscriber: string): boolean {
  return !ownership || ownership.owner === subscriber || ownership.shared_with.includes(subscriber);
}

const SHAREABLE_REFERENCE =
  /^(Practitioner|PractitionerRole|Patient|RelatedPerson|ClientApplication|Bot|Device)\/[A-Za-z0-9\-.]{1,64}$/;
const MAX_SHARED = 100;

/**
 * The profiles of a sharing body `{sharedWith: [{reference}]}` (the owner's own profile and
 * repeats dropped). Throws a 400 naming the first bad part.
 */
export function parseSharing(body: unknown, owner: string): string[] {
  const invalid = (text: string, expression: string) =>
    new OperationOutcomeError({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', details: { text }, expression: [expression] }],
    });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The body must be {"sharedWith": [{"reference": "Practitioner/{id}"}, ...]}', 'sharedWith');
  }
  const list = (body as { sharedWith?: unknown }).sharedWith;
  if (!Array.isArray(list)) throw invalid('sharedWith must be an array of references', 'sharedWith');
  if (list.length > MAX_SHARED) {
    throw invalid(`A topic is shared with at most ${MAX_SHARED} profiles`, 'sharedWith');
  }
  const profiles = new Set<string>();
  list.forEach((item: unknown, index) => {
    const reference = (item as { reference?: unknown } | null)?.reference;
    if (typeof reference !== 'string' || !SHAREABLE_REFERENCE.test(reference)) {
      throw invalid(
        'Each entry must be a reference to a user profile, e.g. {"reference": "Practitioner/123"}',
        `sharedWith[${index}]`,
      );
    }
    if (reference !== owner) profiles.add(reference);
  });
  return [...profiles];
}
