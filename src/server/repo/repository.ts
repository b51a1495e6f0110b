// The Repository: the only code that reads and writes resources in SQL. Every write is validated
// against the FHIR definitions, versioned (a new meta.versionId per version, the old ones kept in
// resource_history) and stamped with project, author and Patient compartments (SPEC §3 Meta).
import crypto from 'node:crypto';
import type { Meta, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { Operation } from 'fast-json-patch';
import {
  allOk,
  assertValidResource,
  badRequest,
  forbidden,
  getPatientCompartments,
  gone,
  isResourceType,
  isValidId,
  notFound,
  OperationOutcomeError,
  preconditionFailed,
  validateResource,
  validationOutcome,
} from '../../fhir';
import type { Database, Queryable } from '../db';
import { deleteIndexRows } from '../search/index-writer';
import type { ResourceKey } from '../search/index-writer';
import { executeSearch } from '../search/search-engine';
import { visibleSql } from '../search/filter-sql';
import { continuingParams, isolationConditions, versionConditions } from '../search/policy-sql';
import { isBaseDefinition, readBaseDefinitionJson } from '../definitions-source/base-definitions';
import { searchWithBaseDefinitions } from '../definitions-source/merged-search';
import type { SearchResult } from '../search/types';
import { parseSearchRequest } from '../../fhir/search';
import type { SearchRequest } from '../../fhir/search';
import { canSee, candidateEntries, isUnrestricted, secretFields, typeRights } from '../access/access-control';
import type { ResourcePlacement, TypeRights } from '../access/access-control';
import type { RepositoryContext } from '../access/context';
import type { AccessInteraction } from '../access/policy';
import { checkCredentialWrite } from './credential-writes';
import { applyJsonPatch } from './json-patch';
import { lockName } from './lookups';
import { resourceCacheFor, toResourceJson } from './resource-cache';
import type { ResourceCache, ResourceJson } from './resource-cache';
import { changedReadonlyField, entryFor, keepHiddenFields, redactFor } from './policy-match';
import { writeVersions } from './version-writer';
import { writeConstraintsHold } from './write-constraints';
import { checkQuestionnaireResponse } from '../questionnaires/check-response';
import { checkFhircastEntries } from '../fhircast/policy-entries';

export interface WriteResult<T extends Resource> {
  resource: T;
  /** True when this write brought the resource into existence (201), false for a new version or a match (200). */
  created: boolean;
}

export interface PageRequest {
  count: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  /** Whether another page follows this one. */
  hasMore: boolean;
}

export interface HistoryRecord {
  resourceType: string;
  id: string;
  versionId: string;
  lastUpdated: string;
  /** The interaction that made this version. */
  method: 'POST' | 'PUT' | 'DELETE';
  /** Absent for a delete. */
  resource?: Resource;
}

export interface BulkUpdate<T extends Resource> {
  resource: T;
  /** As WriteOptions.ifMatch. */
  ifMatch?: string;
}

/** A refusal of one write among several (updateResources): `index` is its position, `cause` the refusal. */
export class BulkWriteError extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(`write ${index} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Runs `fn` for the write at `index`, its failure wrapped in a BulkWriteError. */
function atPosition<R>(index: number, fn: () => R): R {
  const wrap = (err: unknown): never => {
    throw err instanceof BulkWriteError ? err : new BulkWriteError(index, err);
  };
  try {
    const result = fn();
    return (result instanceof Promise ? result.catch(wrap) : result) as R;
  } catch (err) {
    return wrap(err);
  }
}

export interface WriteOptions {
  /** The version the caller last saw (If-Match); a different current version is a 412. */
  ifMatch?: string;
}

interface CurrentRow {
  version_id: string;
  deleted: boolean;
  content: Resource;
  project: string | null;
  compartments: string[];
}

interface HistoryRow {
  resource_type: string;
  id: string;
  version_id: string;
  content: Resource | null;
  last_updated: Date | string;
  deleted: boolean;
  first: boolean;
}

/** A resource as it is to be stored: the same object when nothing changes. */
export type StoredUrlRewriter = <T extends Resource>(resource: T) => T;

/** What the server gives a Repository, beyond who is writing (RepositoryContext). */
export interface RepositorySettings {
  /**
   * Rewrites URLs in every resource written, before it is validated and stored. The server gives
   * Binary's (binary/attachment-urls.ts: its own signed storage URLs become 'Binary/{id}').
   * Unset (the seed, system work, tests), resources are stored as written.
   */
  rewriteStoredUrls?: StoredUrlRewriter;
  /** Most search index rows one resource written by a caller may have (MAX_INDEX_VALUES); unset: no limit. */
  maxIndexValues?: number;
}

export class Repository {
  constructor(
    private readonly db: Database,
    readonly context: RepositoryContext,
    /** Set when this Repository works inside a transaction opened by withTransaction. */
    private readonly tx?: Queryable,
    private readonly settings: RepositorySettings = {},
  ) {}

  /** Looked up on each use: on PostgreSQL the cache comes and goes with its notifications. */
  private get cache(): ResourceCache | undefined {
    return resourceCacheFor(this.db);
  }

  /** Runs `fn` with a Repository whose every call joins one transaction: all of it is stored, or none. */
  withTransaction<T>(fn: (repo: Repository) => Promise<T>): Promise<T> {
    if (this.tx) {
      return fn(this);
    }
    return this.db.transaction((tx) => fn(new Repository(this.db, this.context, tx, this.settings)));
  }

  /**
   * Holds a lock on `name` until the open transaction ends, so that two transactions that check and
   * then write the same thing (e.g. a Schedule's free time before a booking) run one after the other.
   */
  async lockName(name: string): Promise<void> {
    if (!this.tx) {
      throw new Error('lockName needs a transaction (withTransaction)');
    }
    await lockName(this.tx, name);
  }

  /** The same store (and the open transaction, if any) written as another caller, e.g. the demo seed as its project. */
  withContext(context: RepositoryContext): Repository {
    return new Repository(this.db, context, this.tx, this.settings);
  }

  private run<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.tx ? fn(this.tx) : this.db.transaction(fn);
  }

  /** The index limit: set for writes through the API, unset for the server's own work. */
  private get maxIndexValues(): number | undefined {
    return this.settings.maxIndexValues;
  }

  /** The open transaction, or the database itself for single statements and reads. */
  private get connection(): Queryable {
    return this.tx ?? this.db;
  }

  async createResource<T extends Resource>(resource: T, options: { assignedId?: string } = {}): Promise<T> {
    checkResourceShape(resource);
    this.checkMayCreate(resource.resourceType);
    const id = options.assignedId ?? crypto.randomUUID();
    const stored = this.checkNewVersion(this.prepareVersion(resource, id), undefined);
    await this.checkPartOfVisible(this.connection, stored);
    // A single statement: atomic on its own, so outside a transaction none is opened.
    await writeVersions(this.connection, [stored], [], 'insert', this.maxIndexValues);
    this.cache?.invalidate(`${stored.resourceType}/${id}`);
    return this.redact(stored);
  }

  /** Create unless a resource matches `ifNoneExist` (0 matches: create; 1: return it; more: 412). */
  async conditionalCreate<T extends Resource>(resource: T, ifNoneExist: string): Promise<WriteResult<T>> {
    checkResourceShape(resource);
    this.checkMayCreate(resource.resourceType);
    return this.run(async (tx) => {
      const existing = await findMatchingIn<T>(tx, this.context, resource.resourceType, ifNoneExist);
      if (existing) {
        return { resource: this.redact(existing), created: false };
      }
      const stored = this.checkNewVersion(this.prepareVersion(resource, crypto.randomUUID()), undefined);
      await this.checkPartOfVisible(tx, stored);
      await writeVersions(tx, [stored], [], 'insert', this.maxIndexValues);
      this.cache?.invalidate(`${stored.resourceType}/${stored.id}`);
      return { resource: this.redact(stored), created: true };
    });
  }

  /**
   * The one live resource of `resourceType` matching an If-None-Exist query, or undefined (more than
   * one match is a 412). Inside withTransaction the check holds until the transaction ends.
   */
  async findMatching<T extends Resource>(resourceType: string, ifNoneExist: string): Promise<T | undefined> {
    const found = await this.run((tx) => findMatchingIn<T>(tx, this.context, resourceType, ifNoneExist));
    return found && this.redact(found);
  }

  async readResource<T extends Resource>(resourceType: string, id: string): Promise<T> {
    const cached = this.readCache()?.getJson(`${resourceType}/${id}`);
    if (cached) {
      this.checkCachedVisible(resourceType, id, cached);
      return this.redact(JSON.parse(cached.json) as T);
    }
    return this.redact((await this.readCurrent(resourceType, id)).resource as T);
  }

  /**
   * The current version as JSON text, for a read that sends it unchanged: from the cache when it
   * holds it, so a cached read neither parses nor serializes.
   */
  async readResourceJson(resourceType: string, id: string): Promise<Readonly<ResourceJson>> {
    const cached = this.readCache()?.getJson(`${resourceType}/${id}`);
    if (cached) {
      this.checkCachedVisible(resourceType, id, cached);
      return this.redactJson(resourceType, cached);
    }
    const current = await this.readCurrent(resourceType, id);
    return this.redactJson(resourceType, current.json ?? toResourceJson(current.resource));
  }

  /**
   * A cached entry passes the same check as a row: its meta carries the row's project and
   * compartments, and only a policy with criteria on the type needs the content parsed.
   */
  private checkCachedVisible(resourceType: string, id: string, cached: Readonly<ResourceJson>): void {
    const access = this.context.access;
    if (!access) {
      return;
    }
    checkResourceType(resourceType);
    const placement = { resourceType, id, project: cached.project, compartments: cached.compartments };
    const needsContent =
      !access.superAdmin && candidateEntries(access, resourceType, 'read').some((entry) => entry.criteria);
    const visible = needsContent
      ? this.readableAs(JSON.parse(cached.json) as Resource, 'read', {
          project: cached.project ?? null,
          compartments: [...cached.compartments],
        })
      : this.rights(resourceType).readById && canSee(this.context, placement);
    if (!visible) {
      throw new OperationOutcomeError(notFound);
    }
  }

  /**
   * Whether the caller's policy allows `interaction` on this resource (row: the stored columns, else
   * its own meta), with the fixed layer: a super admin and the server's own work always may.
   */
  private readableAs(
    resource: Resource,
    interaction: AccessInteraction,
    row?: { project: string | null; compartments: string[] },
  ): boolean {
    return entryFor(this.context, resource, interaction, row) !== undefined;
  }

  /** Inside a transaction the cache is bypassed: it must only ever hold committed versions. */
  private readCache(): ResourceCache | undefined {
    return this.tx ? undefined : this.cache;
  }

  private async readCurrent(
    resourceType: string,
    id: string,
  ): Promise<{ resource: Resource; json?: ResourceJson }> {
    checkResourceType(resourceType);
    // A base FHIR definition is read-only and readable by every signed-in user.
    const base = await readBaseDefinitionJson(resourceType, id);
    if (base !== undefined) {
      return { resource: JSON.parse(base) as Resource };
    }
    const cache = this.readCache();
    const generation = cache?.startRead() ?? 0;
    if (!this.rights(resourceType).readById) {
      throw new OperationOutcomeError(notFound);
    }
    const { rows } = await this.connection.query<CurrentRow>(
      'SELECT version_id, deleted, content, project, compartments FROM resource WHERE resource_type = $1 AND id = $2',
      [resourceType, id],
    );
    const row = rows[0];
    // Another project's, another patient's or a resource outside the policy's criteria answers
    // exactly as a missing one (never 410).
    if (!row || !this.readableAs(row.content, 'read', row)) {
      throw new OperationOutcomeError(notFound);
    }
    if (row.deleted) {
      throw new OperationOutcomeError(gone);
    }
    if (!cache) {
      return { resource: row.content };
    }
    const json = toResourceJson(row.content, row);
    cache.setJson(`${resourceType}/${id}`, json, generation);
    return { resource: row.content, json };
  }

  async readVersion<T extends Resource>(resourceType: string, id: string, versionId: string): Promise<T> {
    checkResourceType(resourceType);
    if (!UUID.test(versionId) || !this.rights(resourceType).vread) {
      throw new OperationOutcomeError(notFound);
    }
    // The resource as it is now, and this version as it was, must both be visible to the caller.
    const params = continuingParams([resourceType, id, versionId]);
    const visible = [
      ...visibleSql(this.context, resourceType, 'r', params, 'vread'),
      ...versionConditions(this.context, resourceType, 'h.content', params, 'vread'),
    ];
    const { rows } = await this.connection.query<{ content: T | null; deleted: boolean }>(
      `SELECT h.content, h.deleted
       FROM resource_history h JOIN resource r ON r.resource_type = h.resource_type AND r.id = h.id
       WHERE ${['h.resource_type = $1', 'h.id = $2', 'h.version_id = $3', ...visible].join(' AND ')}`,
      params.values,
    );
    const row = rows[0];
    if (!row || (row.content && !this.readableAs(row.content, 'vread'))) {
      throw new OperationOutcomeError(notFound);
    }
    if (row.deleted || !row.content) {
      throw new OperationOutcomeError(gone);
    }
    return this.redact(row.content);
  }

  /** Stores a new version; creates the resource with the given id when it does not exist (or was deleted). */
  async updateResource<T extends Resource>(resource: T, options: WriteOptions = {}): Promise<WriteResult<T>> {
    const key = this.checkUpdate(resource);
    await this.checkNotBaseDefinition(key);
    return this.run(async (tx) => {
      const current = await lockCurrent(tx, key.resourceType, key.id);
      const placed = this.placeUpdate(resource, current, options.ifMatch);
      await this.checkPartOfVisible(tx, placed.stored);
      await writeVersions(tx, [placed.stored], current ? [key] : [], 'upsert', this.maxIndexValues);
      this.cache?.invalidate(`${key.resourceType}/${key.id}`);
      return { resource: this.redact(placed.stored), created: placed.created };
    });
  }

  /**
   * Several updates in one transaction (the PUT entries of a transaction Bundle): each gets the
   * checks and result of updateResource, but all share one lock query and one write statement.
   * A refusal is a BulkWriteError naming the position of the update that failed.
   */
  async updateResources<T extends Resource>(updates: readonly BulkUpdate<T>[]): Promise<WriteResult<T>[]> {
    const keys = updates.map(({ resource }, index) => atPosition(index, () => this.checkUpdate(resource)));
    for (const [index, key] of keys.entries()) {
      await atPosition(index, () => this.checkNotBaseDefinition(key));
    }
    if (new Set(keys.map((key) => `${key.resourceType}/${key.id}`)).size < keys.length) {
      // The same resource twice: its versions must follow each other, so one at a time.
      return this.withTransaction(async (repo) => {
        const results: WriteResult<T>[] = [];
        for (const [index, { resource, ifMatch }] of updates.entries()) {
          results.push(await atPosition(index, () => repo.updateResource(resource, { ifMatch })));
        }
        return results;
      });
    }
    return this.run(async (tx) => {
      const currents = await lockCurrents(tx, keys);
      const placed = updates.map(({ resource, ifMatch }, index) =>
        atPosition(index, () =>
          this.placeUpdate(resource, currents.get(`${keys[index].resourceType}/${keys[index].id}`), ifMatch),
        ),
      );
      for (const [index, p] of placed.entries()) {
        await atPosition(index, () => this.checkPartOfVisible(tx, p.stored));
      }
      const replaced = keys.filter((key) => currents.has(`${key.resourceType}/${key.id}`));
      await writeVersions(
        tx,
        placed.map((p) => p.stored),
        replaced,
        'upsert',
        this.maxIndexValues,
      );
      for (const key of keys) {
        this.cache?.invalidate(`${key.resourceType}/${key.id}`);
      }
      return placed.map((p) => ({ resource: this.redact(p.stored), created: p.created }));
    });
  }

  /** What an update may be refused before any lookup: its shape, id and the caller's rights on the type. */
  private checkUpdate(resource: unknown): ResourceKey {
    checkResourceShape(resource);
    const id = resource.id;
    if (!id) {
      throw new OperationOutcomeError(badRequest('Missing id', `${resource.resourceType}.id`));
    }
    if (!isValidId(id)) {
      throw new OperationOutcomeError(badRequest(`Invalid id '${id}'`, `${resource.resourceType}.id`));
    }
    const resourceType = resource.resourceType;
    this.checkMayWriteType(resourceType, 'update');
    return { resourceType, id };
  }

  /** The base FHIR definitions are written by super admins only. */
  private async checkNotBaseDefinition({ resourceType, id }: ResourceKey): Promise<void> {
    if (
      this.context.access &&
      !this.context.access.superAdmin &&
      (await isBaseDefinition(resourceType, id))
    ) {
      throw new OperationOutcomeError(forbidden);
    }
  }

  /** The new version of a locked resource (absent: never stored), after the checks that need it. */
  private placeUpdate<T extends Resource>(
    resource: T,
    current: CurrentRow | undefined,
    ifMatch: string | undefined,
  ): { stored: T; created: boolean } {
    const { resourceType } = resource;
    const id = resource.id as string;
    if (current && !current.deleted) {
      this.checkMayChange(current, 'update');
    } else {
      // A deleted resource is brought back by a create, if the caller may see that it was there.
      if (current && this.context.access && !canSee(this.context, placementOf(resourceType, id, current))) {
        throw new OperationOutcomeError(notFound);
      }
      this.checkMayCreate(resourceType);
    }
    checkIfMatch(current, ifMatch);
    const before = current && !current.deleted ? current.content : undefined;
    const stored = this.checkNewVersion(this.prepareVersion(resource, id, current), before);
    return { stored, created: !current || current.deleted };
  }

  async patchResource<T extends Resource>(
    resourceType: string,
    id: string,
    patch: readonly Operation[],
    options: WriteOptions = {},
  ): Promise<T> {
    checkResourceType(resourceType);
    this.checkMayWriteType(resourceType, 'update');
    return this.run(async (tx) => {
      const current = await lockCurrent(tx, resourceType, id);
      if (!current || !this.readableAs(current.content, 'read', current)) {
        throw new OperationOutcomeError(notFound);
      }
      if (current.deleted) {
        throw new OperationOutcomeError(gone);
      }
      this.checkMayChange(current, 'update');
      checkIfMatch(current, options.ifMatch);
      const patched = applyJsonPatch(current.content as T, patch);
      if (patched.resourceType !== resourceType || patched.id !== id) {
        throw new OperationOutcomeError(badRequest('JSON Patch must not change resourceType or id'));
      }
      const stored = this.checkNewVersion(this.prepareVersion(patched, id, current), current.content);
      await this.checkPartOfVisible(tx, stored);
      await writeVersions(tx, [stored], [{ resourceType, id }], 'upsert', this.maxIndexValues);
      this.cache?.invalidate(`${resourceType}/${id}`);
      return this.redact(stored);
    });
  }

  /** Marks the resource deleted; its history stays readable. Deleting a deleted resource changes nothing. */
  async deleteResource(resourceType: string, id: string, options: WriteOptions = {}): Promise<void> {
    checkResourceType(resourceType);
    this.checkMayWriteType(resourceType, 'delete');
    await this.run(async (tx) => {
      const current = await lockCurrent(tx, resourceType, id);
      if (!current) {
        throw new OperationOutcomeError(notFound);
      }
      this.checkMayChange(current, 'delete');
      checkIfMatch(current, options.ifMatch);
      if (current.deleted) {
        return;
      }
      const versionId = crypto.randomUUID();
      const now = new Date().toISOString();
      const { rows } = await tx.query<{ seq: string }>(
        `INSERT INTO resource_history (version_id, resource_type, id, content, last_updated, deleted)
         VALUES ($1, $2, $3, NULL, $4, true) RETURNING seq::text`,
        [versionId, resourceType, id, now],
      );
      await tx.query(
        `UPDATE resource SET deleted = true, version_id = $3, last_updated = $4, seq = $5::bigint
         WHERE resource_type = $1 AND id = $2`,
        [resourceType, id, versionId, now, rows[0].seq],
      );
      await deleteIndexRows(tx, resourceType, id);
      this.cache?.invalidate(`${resourceType}/${id}`);
    });
  }

  /** Every version of one resource, newest first. */
  async readHistory(resourceType: string, id: string, page: PageRequest): Promise<Page<HistoryRecord>> {
    checkResourceType(resourceType);
    if (!this.rights(resourceType).history) {
      throw new OperationOutcomeError(notFound);
    }
    const exists = await this.connection.query<{
      content: Resource;
      project: string | null;
      compartments: string[];
    }>('SELECT content, project, compartments FROM resource WHERE resource_type = $1 AND id = $2', [
      resourceType,
      id,
    ]);
    const row = exists.rows[0];
    if (!row) {
      throw new OperationOutcomeError(notFound);
    }
    if (this.historyCriteria(resourceType)) {
      // Each version is judged on its own content: a resource none of whose versions the caller
      // may read answers as a missing one.
      const result = await this.queryHistoryPerVersion(
        ['h.resource_type = $1', 'h.id = $2'],
        [resourceType, id],
        page,
      );
      if (page.offset === 0 && result.items.length === 0) {
        throw new OperationOutcomeError(notFound);
      }
      return result;
    }
    if (!this.readableAs(row.content, 'history', row)) {
      throw new OperationOutcomeError(notFound);
    }
    return this.queryHistory(['h.resource_type = $1', 'h.id = $2'], [resourceType, id], page);
  }

  /** Every version of every resource of a type, newest first. */
  async readTypeHistory(resourceType: string, page: PageRequest): Promise<Page<HistoryRecord>> {
    checkResourceType(resourceType);
    if (!this.rights(resourceType).history) {
      return { items: [], hasMore: false };
    }
    return this.historyCriteria(resourceType)
      ? this.queryHistoryPerVersion(['h.resource_type = $1'], [resourceType], page)
      : this.queryHistory(['h.resource_type = $1'], [resourceType], page);
  }

  /**
   * Whether some entry granting `history` on the type has criteria: the search tables index only
   * the resource as it is now, so criteria on older versions are decided on each version's content.
   */
  private historyCriteria(resourceType: string): boolean {
    const access = this.context.access;
    return (
      !isUnrestricted(access) &&
      candidateEntries(access, resourceType, 'history').some((entry) => entry.criteria !== undefined)
    );
  }

  /**
   * History under criteria: project and compartments in SQL, then each version judged on its own
   * content by the same matcher as a read (a deletion by the resource's last stored content), scanning in
   * batches so that offset and count are over the versions the caller may see.
   */
  private async queryHistoryPerVersion(
    conditions: string[],
    values: string[],
    page: PageRequest,
  ): Promise<Page<HistoryRecord>> {
    const params = continuingParams(values);
    const resourceType = values[0];
    const where = [
      ...conditions,
      ...isolationConditions({ params, context: this.context, valueSets: new Map(), depth: 0 }, 'r'),
      ...versionConditions(this.context, resourceType, 'h.content', params, 'history'),
    ];
    const batch = Math.max(100, page.count + 1);
    const limit = params.add(batch);
    const offset = params.add(0);
    const visible: HistoryRecord[] = [];
    let skipped = 0;
    for (let scanned = 0; ; scanned += batch) {
      params.values[params.values.length - 1] = scanned;
      const { rows } = await this.connection.query<HistoryRow & { current: Resource }>(
        `SELECT h.resource_type, h.id, h.version_id, h.content, h.last_updated, h.deleted, r.content AS current,
           NOT EXISTS (SELECT 1 FROM resource_history e
                       WHERE e.resource_type = h.resource_type AND e.id = h.id AND e.seq < h.seq) AS first
         FROM resource_history h JOIN resource r ON r.resource_type = h.resource_type AND r.id = h.id
         WHERE ${where.join(' AND ')}
         ORDER BY h.seq DESC LIMIT ${limit} OFFSET ${offset}`,
        params.values,
      );
      for (const row of rows) {
        if (!this.readableAs(row.content ?? row.current, 'history')) {
          continue;
        }
        if (skipped < page.offset) {
          skipped++;
          continue;
        }
        const record = toHistoryRecord(row);
        if (record.resource) {
          record.resource = this.redact(record.resource);
        }
        visible.push(record);
        if (visible.length > page.count) {
          return { items: visible.slice(0, page.count), hasMore: true };
        }
      }
      if (rows.length < batch) {
        return { items: visible, hasMore: false };
      }
    }
  }

  /** History filtered in SQL (the resource as it is now and each version as it was), so paging stays right. */
  private async queryHistory(
    conditions: string[],
    values: string[],
    page: PageRequest,
  ): Promise<Page<HistoryRecord>> {
    const params = continuingParams(values);
    const resourceType = values[0];
    const current = visibleSql(this.context, resourceType, 'r', params, 'history');
    const version = versionConditions(this.context, resourceType, 'h.content', params, 'history');
    const where = [...conditions, ...current, ...version];
    const join =
      current.length > 0 ? 'JOIN resource r ON r.resource_type = h.resource_type AND r.id = h.id' : '';
    const { rows } = await this.connection.query<HistoryRow>(
      `SELECT h.resource_type, h.id, h.version_id, h.content, h.last_updated, h.deleted,
         NOT EXISTS (SELECT 1 FROM resource_history e
                     WHERE e.resource_type = h.resource_type AND e.id = h.id AND e.seq < h.seq) AS first
       FROM resource_history h ${join} WHERE ${where.join(' AND ')}
       ORDER BY h.seq DESC LIMIT ${params.add(page.count + 1)} OFFSET ${params.add(page.offset)}`,
      params.values,
    );
    return {
      items: rows.slice(0, page.count).map((row) => {
        const record = toHistoryRecord(row);
        if (record.resource) {
          record.resource = this.redact(record.resource);
        }
        return record;
      }),
      hasMore: rows.length > page.count,
    };
  }

  /** The newest live resources of a type: the plain list that stands in for search until search exists. */
  async listNewest<T extends Resource>(resourceType: string, page: PageRequest): Promise<Page<T>> {
    checkResourceType(resourceType);
    if (!this.rights(resourceType).read) {
      return { items: [], hasMore: false };
    }
    const params = continuingParams([resourceType]);
    const visible = visibleSql(this.context, resourceType, 'r', params, 'search');
    const { rows } = await this.connection.query<{ content: T }>(
      `SELECT r.content FROM resource r WHERE ${['r.resource_type = $1', 'NOT r.deleted', ...visible].join(' AND ')}
       ORDER BY r.seq DESC LIMIT ${params.add(page.count + 1)} OFFSET ${params.add(page.offset)}`,
      params.values,
    );
    return {
      items: rows.slice(0, page.count).map((row) => this.redact(row.content)),
      hasMore: rows.length > page.count,
    };
  }

  /**
   * FHIR search: filters, sort, paging, totals and includes in SQL over the
   * index tables, limited to what the caller may see inside the same query.
   */
  async search<T extends Resource>(request: SearchRequest): Promise<SearchResult<T>> {
    // StructureDefinition and SearchParameter also list the base definitions.
    const result = await searchWithBaseDefinitions<T>(request, (r) =>
      executeSearch<T>(this.connection, this.context, r),
    );
    return {
      ...result,
      resources: result.resources.map((resource) => this.redact(resource)),
      included: result.included.map((resource) => this.redact(resource)),
    };
  }

  private rights(resourceType: string): TypeRights {
    return typeRights(this.context.access, resourceType);
  }

  /** Refuses a create of a type the caller may not create. */
  private checkMayCreate(resourceType: string): void {
    const rights = this.rights(resourceType);
    if (!rights.create) {
      throw refusal(rights);
    }
  }

  /**
   * Refuses, before any lookup, an update or delete of a type the caller may neither change nor
   * read: 403 (members know the type exists), 404 for a patient and the platform's types. A type it
   * reads is looked up, so that what it cannot see answers 404 as a missing resource does.
   */
  private checkMayWriteType(resourceType: string, kind: 'update' | 'delete'): void {
    const rights = this.rights(resourceType);
    if (!rights[kind] && !(kind === 'update' && rights.create) && !rights.readById) {
      throw refusal(rights);
    }
  }

  /**
   * The current version must satisfy an entry for the change: one the caller cannot read is 404
   * (it must not learn it exists), one it reads but may not change is 403.
   */
  private checkMayChange(current: CurrentRow, kind: 'update' | 'delete'): void {
    if (!this.context.access) {
      return;
    }
    if (!this.readableAs(current.content, kind, current)) {
      throw new OperationOutcomeError(
        this.readableAs(current.content, 'read', current) ? forbidden : notFound,
      );
    }
  }

  /**
   * The new version as the caller's policy lets it be stored: it satisfies a `create` (new) or
   * `update` entry, and that entry's writeConstraints (`%before`: the version it replaces) hold, its
   * readonlyFields are unchanged (403 naming the field) and its hiddenFields keep the stored values.
   * Fixed rule: a membership stays in the caller's own project (else it would grant another).
   */
  private checkNewVersion<T extends Resource>(stored: T, before: Resource | undefined): T {
    const access = this.context.access;
    if (!access || access.superAdmin) {
      return stored;
    }
    if (
      stored.resourceType === 'ProjectMembership' &&
      (stored as Resource & { project?: { reference?: string } }).project?.reference !==
        `Project/${this.context.project}`
    ) {
      throw new OperationOutcomeError(forbidden);
    }
    const entry = entryFor(this.context, stored, before ? 'update' : 'create');
    if (!entry || !writeConstraintsHold(entry, before, stored)) {
      throw new OperationOutcomeError(forbidden);
    }
    const changed = before && changedReadonlyField(entry, before, stored);
    if (changed) {
      throw new OperationOutcomeError(readonlyFieldOutcome(`${stored.resourceType}.${changed}`));
    }
    return keepHiddenFields(entry, stored, before);
  }

  /**
   * A resource is `partOf` only what its writer can read: a patient's message joins her own
   * thread, never another patient's (the same 400 whether that thread is hidden or absent). Every
   * write passes here before it is stored, so a QuestionnaireResponse is checked against its form here too.
   */
  private async checkPartOfVisible(connection: Queryable, stored: Resource): Promise<void> {
    await checkQuestionnaireResponse(connection, this.context, stored);
    const access = this.context.access;
    const partOf = (stored as { partOf?: unknown }).partOf;
    if (!access || access.superAdmin || !Array.isArray(partOf)) {
      return;
    }
    for (const [index, entry] of partOf.entries()) {
      const reference = (entry as { reference?: unknown } | null)?.reference;
      const match =
        typeof reference === 'string' ? /^([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(reference) : null;
      const row =
        match && isResourceType(match[1]) ? await currentRow(connection, match[1], match[2]) : undefined;
      if (!match || !row || row.deleted || !this.readableAs(row.content, 'read', row)) {
        const path = `${stored.resourceType}.partOf[${index}]`;
        throw new OperationOutcomeError(badRequest(`${path}: ${String(reference)} not found`, path));
      }
    }
  }

  /**
   * Secrets (User.passwordHash, User.mfaSecret) leave the Repository only for the server's own
   * work, and the hiddenFields of the policy entry a resource is read through never leave.
   */
  private redact<T extends Resource>(resource: T): T {
    return redactFor(this.context, resource);
  }

  /** As redact, on JSON text: parsed only when the caller's policy hides something of the type. */
  private redactJson(resourceType: string, entry: Readonly<ResourceJson>): Readonly<ResourceJson> {
    const access = this.context.access;
    if (!access) {
      return entry;
    }
    const hides =
      secretFields(resourceType) !== undefined ||
      (!access.superAdmin &&
        [
          ...candidateEntries(access, resourceType, 'read'),
          ...candidateEntries(access, resourceType, 'search'),
        ].some((e) => (e.hiddenFields?.length ?? 0) > 0));
    if (!hides) {
      return entry;
    }
    const resource = JSON.parse(entry.json) as Resource;
    const redacted = this.redact(resource);
    return redacted === resource ? entry : { ...entry, json: JSON.stringify(redacted) };
  }

  /** $validate: all OK, or an outcome listing every problem. Stores nothing. */
  validate(resource: unknown): OperationOutcome {
    checkResourceShape(resource);
    const issues = validateResource(resource);
    return issues.length === 0 ? allOk : validationOutcome(issues);
  }

  /** The resource as it will be stored: id, server-managed meta, validated, with its compartments. */
  private prepareVersion<T extends Resource>(resource: T, id: string, current?: CurrentRow): T {
    const access = this.context.access;
    const meta: Meta = {
      ...resource.meta,
      versionId: crypto.randomUUID(),
      lastUpdated: new Date().toISOString(),
      author: access?.profile ?? this.context.author,
    };
    // Project and compartments are the server's to set, never the client's (a super admin may name
    // the project). A writer naming no project keeps the resource where it is.
    const project = access?.superAdmin
      ? (resource.meta?.project ?? current?.project ?? this.context.project)
      : access
        ? this.context.project
        : (this.context.project ?? current?.project ?? undefined);
    delete meta.project;
    delete meta.compartment;
    if (project) {
      meta.project = project;
    }
    // URLs the server stores differently than written (its own signed Binary URLs: as 'Binary/{id}').
    const rewrite = this.settings.rewriteStoredUrls;
    const candidate = { ...(rewrite ? rewrite(resource) : resource), id, meta } as T;
    if (access) {
      const previous = current?.deleted === false ? current.content : undefined;
      keepSecrets(candidate, previous);
      checkCredentialWrite(access, candidate, previous);
    }
    assertValidResource(candidate);
    checkFhircastEntries(candidate);
    const compartments = getPatientCompartments(candidate);
    // AccessPolicy.compartment: what the caller writes is also placed there, as Medplum does, when
    // it names no patient itself (a patient's Subscription lives in her compartment so she reads
    // it); a resource about another patient is never pulled into the writer's compartment, where
    // her own policy entries would then allow it.
    const policyCompartment = access && !access.superAdmin ? access.policy.compartment?.reference : undefined;
    if (policyCompartment && compartments.length === 0) {
      compartments.push({ reference: policyCompartment });
    }
    if (compartments.length > 0) {
      candidate.meta = { ...meta, compartment: compartments };
    }
    return candidate;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkResourceType(resourceType: string): void {
  if (!isResourceType(resourceType)) {
    throw new OperationOutcomeError(badRequest(`Unknown resource type '${resourceType}'`, 'resourceType'));
  }
}

function checkResourceShape(value: unknown): asserts value is Resource {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OperationOutcomeError(badRequest('A resource must be a JSON object'));
  }
  const resourceType = (value as { resourceType?: unknown }).resourceType;
  if (typeof resourceType !== 'string' || !resourceType) {
    throw new OperationOutcomeError(badRequest('Missing resourceType', 'resourceType'));
  }
  checkResourceType(resourceType);
}

/**
 * Holds a per-type lock until the transaction ends, so two concurrent conditional creates cannot
 * both create. The criteria are a full search: any parameter, only what the caller may see.
 */
async function findMatchingIn<T extends Resource>(
  tx: Queryable,
  context: RepositoryContext,
  resourceType: string,
  ifNoneExist: string,
): Promise<T | undefined> {
  checkResourceType(resourceType);
  const query = new URLSearchParams(ifNoneExist.startsWith('?') ? ifNoneExist.slice(1) : ifNoneExist);
  const request = parseSearchRequest({ resourceType, query });
  if (!request.filters?.length) {
    throw new OperationOutcomeError(badRequest('If-None-Exist has no search parameters'));
  }
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`conditional-create:${resourceType}`]);
  const { resources } = await executeSearch<T>(tx, context, {
    resourceType,
    filters: request.filters,
    count: 2,
  });
  if (resources.length > 1) {
    throw new OperationOutcomeError(
      preconditionFailed(`If-None-Exist matched more than one ${resourceType}: ${ifNoneExist}`),
    );
  }
  return resources[0];
}

/** The current row, read without a lock (what a reference points at). */
async function currentRow(db: Queryable, resourceType: string, id: string): Promise<CurrentRow | undefined> {
  const { rows } = await db.query<CurrentRow>(
    `SELECT version_id, deleted, content, project, compartments FROM resource WHERE resource_type = $1 AND id = $2`,
    [resourceType, id],
  );
  return rows[0];
}

async function lockCurrent(tx: Queryable, resourceType: string, id: string): Promise<CurrentRow | undefined> {
  const { rows } = await tx.query<CurrentRow>(
    `SELECT version_id, deleted, content, project, compartments FROM resource
     WHERE resource_type = $1 AND id = $2 FOR UPDATE`,
    [resourceType, id],
  );
  return rows[0];
}

/** Locks the current rows of several resources (in key order, so concurrent bulk writes cannot deadlock). */
async function lockCurrents(tx: Queryable, keys: readonly ResourceKey[]): Promise<Map<string, CurrentRow>> {
  const { rows } = await tx.query<CurrentRow & { resource_type: string; id: string }>(
    `SELECT resource_type, id, version_id, deleted, content, project, compartments FROM resource
     WHERE (resource_type, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
     ORDER BY resource_type, id FOR UPDATE`,
    [keys.map((key) => key.resourceType), keys.map((key) => key.id)],
  );
  return new Map(rows.map((row) => [`${row.resource_type}/${row.id}`, row]));
}

function checkIfMatch(current: CurrentRow | undefined, ifMatch: string | undefined): void {
  if (ifMatch === undefined) {
    return;
  }
  if (!current || current.deleted) {
    throw new OperationOutcomeError(preconditionFailed(`If-Match version ${ifMatch} does not exist`));
  }
  if (current.version_id !== ifMatch) {
    throw new OperationOutcomeError(
      preconditionFailed(
        `Version conflict: If-Match is ${ifMatch} but the current version is ${current.version_id}`,
      ),
    );
  }
}

function toHistoryRecord(row: HistoryRow): HistoryRecord {
  const record: HistoryRecord = {
    resourceType: row.resource_type,
    id: row.id,
    versionId: row.version_id,
    lastUpdated: new Date(row.last_updated).toISOString(),
    method: row.deleted ? 'DELETE' : row.first ? 'POST' : 'PUT',
  };
  if (row.content && !row.deleted) {
    record.resource = row.content;
  }
  return record;
}

function placementOf(
  resourceType: string,
  id: string,
  row: { project: string | null; compartments: string[] },
): ResourcePlacement {
  return { resourceType, id, project: row.project, compartments: row.compartments };
}

/** A 403 naming the read-only field a write tried to change. */
function readonlyFieldOutcome(path: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    id: 'forbidden',
    issue: [
      {
        severity: 'error',
        code: 'forbidden',
        details: { text: `${path} is read-only under your access policy` },
        expression: [path],
      },
    ],
  };
}

function refusal(rights: TypeRights): OperationOutcomeError {
  return new OperationOutcomeError(rights.refusal === 'not-found' ? notFound : forbidden);
}

/** A caller's write never sets a secret field; the stored value (if any) is kept. */
function keepSecrets(candidate: Resource, previous: Resource | undefined): void {
  const fields = secretFields(candidate.resourceType);
  if (!fields) {
    return;
  }
  const target = candidate as unknown as Record<string, unknown>;
  const source = previous as unknown as Record<string, unknown> | undefined;
  for (const field of fields) {
    delete target[field];
    if (source && source[field] !== undefined) {
      target[field] = source[field];
    }
  }
}
