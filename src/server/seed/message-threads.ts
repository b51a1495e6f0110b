// Messages written before Bloom kept threads become a thread on the next start, in every project (a
// real clinic has them as much as the demo): the Messages screen and Medplum's ThreadChat show only
// messages partOf a thread header, so without this a patient's past messages would vanish from
// them. An old message is a Communication about a Patient without partOf, not a header with
// messages of its own, and either of Bloom's categories (what the app wrote) or with no category,
// a payload and no topic (what the earlier demo seed wrote; a header, even an empty one, has a
// topic). Each patient's old messages get one new header shaped as the app's newThread, and each
// message a new version partOf it; history is kept and nothing is deleted. It lives beside the seed, not among the SQL
// migrations, because it writes FHIR resources through the Repository (versions, search indexes,
// compartments) as the server does, which the schema migrations run before. Idempotent: once
// upgraded, no message is left without partOf, so a later start finds nothing to do.
import type { Communication, Patient, Reference } from '@medplum/fhirtypes';
import {
  APPOINTMENT_REQUEST_CATEGORY,
  MESSAGE_CATEGORY,
  newThread,
  recipientsOf,
} from '../../fhir/message-threads';
import { parseSearchRequest } from '../../fhir/search/parse';
import type { Repository } from '../repo';

export interface ThreadUpgradeResult {
  /** Thread headers created, one per patient who had old messages. */
  threads: number;
  /** Old messages now partOf those headers. */
  messages: number;
}

/** Two servers starting on one database upgrade once. */
const UPGRADE_LOCK = 'bloom:message-thread-upgrade';
const PAGE = 500;

/** Gathers each patient's pre-thread messages into a thread of hers; `repo` has the system context. */
export async function upgradeMessageThreads(repo: Repository): Promise<ThreadUpgradeResult> {
  return repo.withTransaction(async (txRepo) => {
    await txRepo.lockName(UPGRADE_LOCK);
    const candidates = await oldMessages(txRepo);
    const headers = await headersWithMessages(txRepo, candidates);
    const byPatient = new Map<string, Communication[]>();
    for (const message of candidates) {
      const subject = message.subject?.reference ?? '';
      if (!/^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(subject) || headers.has(message.id ?? '')) {
        continue;
      }
      const key = `${message.meta?.project ?? ''} ${subject}`;
      byPatient.set(key, [...(byPatient.get(key) ?? []), message]);
    }
    let messages = 0;
    for (const group of byPatient.values()) {
      const header = await txRepo
        .withContext({ ...txRepo.context, project: group[0].meta?.project })
        .createResource(threadFor(group));
      const partOf = [{ reference: `Communication/${header.id}` }];
      await txRepo.updateResources(group.map((message) => ({ resource: { ...message, partOf } })));
      messages += group.length;
    }
    return { threads: byPatient.size, messages };
  });
}

/** Messages from before threads (see above) without partOf, in every project. */
async function oldMessages(repo: Repository): Promise<Communication[]> {
  const categories = [MESSAGE_CATEGORY, APPOINTMENT_REQUEST_CATEGORY].map((c) => `${c.system}|${c.code}`);
  const bloom = await searchAll(repo, { category: categories.join(','), 'part-of:missing': 'true' });
  const uncategorised = await searchAll(repo, { 'category:missing': 'true', 'part-of:missing': 'true' });
  return [...bloom, ...uncategorised.filter((c) => (c.payload?.length ?? 0) > 0 && !c.topic)];
}

async function searchAll(repo: Repository, filters: Record<string, string>): Promise<Communication[]> {
  const found: Communication[] = [];
  // Nothing is written while these pages are read, so offsets stay stable.
  for (let offset = 0; ; offset += PAGE) {
    const query = { ...filters, _sort: '_id', _count: String(PAGE), _offset: String(offset) };
    const page = await repo.search<Communication>(
      parseSearchRequest({ resourceType: 'Communication', query }),
    );
    found.push(...page.resources);
    if (page.resources.length < PAGE) {
      return found;
    }
  }
}

/** The ids among `candidates` that other Communications are partOf: headers already, left alone. */
async function headersWithMessages(
  repo: Repository,
  candidates: readonly Communication[],
): Promise<Set<string>> {
  const headers = new Set<string>();
  for (let start = 0; start < candidates.length; start += 50) {
    const refs = candidates.slice(start, start + 50).map((c) => `Communication/${c.id}`);
    for (let offset = 0; ; offset += PAGE) {
      const query = { 'part-of': refs.join(','), _count: String(PAGE), _offset: String(offset) };
      const page = await repo.search<Communication>(
        parseSearchRequest({ resourceType: 'Communication', query }),
      );
      for (const message of page.resources) {
        for (const part of message.partOf ?? []) {
          headers.add(part.reference?.replace(/^Communication\//, '') ?? '');
        }
      }
      if (page.resources.length < PAGE) {
        break;
      }
    }
  }
  return headers;
}

/** Her thread header: newThread's shape, the care team from the messages, sent their newest. */
function threadFor(messages: readonly Communication[]): Communication {
  const patient = messages[0].subject as Reference<Patient>;
  const careTeam = new Map<string, Reference>();
  for (const message of messages) {
    for (const ref of recipientsOf([
      ...(message.sender ? [message.sender] : []),
      ...(message.recipient ?? []),
    ])) {
      if (ref.reference && !careTeam.has(ref.reference)) {
        careTeam.set(ref.reference, ref);
      }
    }
  }
  const withDisplay = messages.find((m) => m.subject?.display)?.subject;
  const header = newThread(
    { reference: patient.reference, ...(withDisplay?.display ? { display: withDisplay.display } : {}) },
    [...careTeam.values()],
  );
  const sent = messages
    .map((m) => m.sent)
    .filter((s): s is string => Boolean(s))
    .sort((a, b) => Date.parse(b) - Date.parse(a))[0];
  return sent ? { ...header, sent } : header;
}
