// The Repository: the only code that reads and writes resources in SQL. Every write is validated
// against the FHIR definitions, versioned (a new meta.versionId per version, the old ones kept in
// resource_history) and stamped with project, author and Patient compartments (SPEC §3 Meta).
import crypto from 'node:crypto';
import type { Meta, OperationOutcome, Reference, Resource } from '@medplum/fhirtypes';
import type { Operation } from 'fast-json-patch';
import {
  allOk,
  assertValidResource,
  badRequest,
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
import { parseConditionalCriteria } from './conditional-criteria';
import type { RepositoryContext } from './context';
import { applyJsonPatch } from './json-patch';
import { resourceCacheFor, toResourceJson } from './resource-cache';
import type { ResourceCache, ResourceJson } from './resource-cache';

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

export interface WriteOptions {
  /** The version the caller last saw (If-Match); a different current version is a 412. */
  ifMatch?: string;
}

interface CurrentRow {
  version_id: string;
  deleted: boolean;
  content: Resource;
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

export class Repository {
  private readonly cache: ResourceCache | undefined;

  constructor(
    private readonly db: Database,
    readonly context: RepositoryContext,
    /** Set when this Repository works inside a transaction opened by withTransaction. */
    private readonly tx?: Queryable,
  ) {
    this.cache = resourceCacheFor(db);
  }

  /** Runs `fn` with a Repository whose every call joins one transaction: all of it is stored, or none. */
  withTransaction<T>(fn: (repo: Repository) => Promise<T>): Promise<T> {
    if (this.tx) {
      return fn(this);
    }
    return this.db.transaction((tx) => fn(new Repository(this.db, this.context, tx)));
  }

  /** The same store (and the open transaction, if any) written as another caller, e.g. the demo seed as its project. */
  withContext(context: RepositoryContext): Repository {
    return new Repository(this.db, context, this.tx);
  }

  private run<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.tx ? fn(this.tx) : this.db.transaction(fn);
  }

  /** The open transaction, or the database itself for single statements and reads. */
  private get connection(): Queryable {
    return this.tx ?? this.db;
  }

  async createResource<T extends Resource>(resource: T, options: { assignedId?: string } = {}): Promise<T> {
    checkResourceShape(resource);
    const id = options.assignedId ?? crypto.randomUUID();
    const stored = this.prepareVersion(resource, id);
    // A single statement: atomic on its own, so outside a transaction none is opened.
    await insertVersion(this.connection, stored, this.context.project);
    this.cache?.invalidate(`${stored.resourceType}/${id}`);
    return stored;
  }

  /** Create unless a resource matches `ifNoneExist` (0 matches: create; 1: return it; more: 412). */
  async conditionalCreate<T extends Resource>(resource: T, ifNoneExist: string): Promise<WriteResult<T>> {
    checkResourceShape(resource);
    return this.run(async (tx) => {
      const existing = await findMatchingIn<T>(tx, resource.resourceType, ifNoneExist);
      if (existing) {
        return { resource: existing, created: false };
      }
      const stored = this.prepareVersion(resource, crypto.randomUUID());
      await insertVersion(tx, stored, this.context.project);
      this.cache?.invalidate(`${stored.resourceType}/${stored.id}`);
      return { resource: stored, created: true };
    });
  }

  /**
   * The one live resource of `resourceType` matching an If-None-Exist query, or undefined (more than
   * one match is a 412). Inside withTransaction the check holds until the transaction ends.
   */
  findMatching<T extends Resource>(resourceType: string, ifNoneExist: string): Promise<T | undefined> {
    return this.run((tx) => findMatchingIn<T>(tx, resourceType, ifNoneExist));
  }

  async readResource<T extends Resource>(resourceType: string, id: string): Promise<T> {
    const cached = this.readCache()?.get<T>(`${resourceType}/${id}`);
    return cached ?? ((await this.readCurrent(resourceType, id)).resource as T);
  }

  /**
   * The current version as JSON text, for a read that sends it unchanged: from the cache when it
   * holds it, so a cached read neither parses nor serializes.
   */
  async readResourceJson(resourceType: string, id: string): Promise<Readonly<ResourceJson>> {
    const cached = this.readCache()?.getJson(`${resourceType}/${id}`);
    if (cached) {
      return cached;
    }
    const current = await this.readCurrent(resourceType, id);
    return current.json ?? toResourceJson(current.resource);
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
    const cache = this.readCache();
    const generation = cache?.startRead() ?? 0;
    const { rows } = await this.connection.query<CurrentRow>(
      'SELECT version_id, deleted, content FROM resource WHERE resource_type = $1 AND id = $2',
      [resourceType, id],
    );
    const row = rows[0];
    if (!row) {
      throw new OperationOutcomeError(notFound);
    }
    if (row.deleted) {
      throw new OperationOutcomeError(gone);
    }
    if (!cache) {
      return { resource: row.content };
    }
    const json = toResourceJson(row.content);
    cache.setJson(`${resourceType}/${id}`, json, generation);
    return { resource: row.content, json };
  }

  async readVersion<T extends Resource>(resourceType: string, id: string, versionId: string): Promise<T> {
    checkResourceType(resourceType);
    if (!UUID.test(versionId)) {
      throw new OperationOutcomeError(notFound);
    }
    const { rows } = await this.connection.query<{ content: T | null; deleted: boolean }>(
      'SELECT content, deleted FROM resource_history WHERE resource_type = $1 AND id = $2 AND version_id = $3',
      [resourceType, id, versionId],
    );
    const row = rows[0];
    if (!row) {
      throw new OperationOutcomeError(notFound);
    }
    if (row.deleted || !row.content) {
      throw new OperationOutcomeError(gone);
    }
    return row.content;
  }

  /** Stores a new version; creates the resource with the given id when it does not exist (or was deleted). */
  async updateResource<T extends Resource>(resource: T, options: WriteOptions = {}): Promise<WriteResult<T>> {
    checkResourceShape(resource);
    const id = resource.id;
    if (!id) {
      throw new OperationOutcomeError(badRequest('Missing id', `${resource.resourceType}.id`));
    }
    if (!isValidId(id)) {
      throw new OperationOutcomeError(badRequest(`Invalid id '${id}'`, `${resource.resourceType}.id`));
    }
    return this.run(async (tx) => {
      const current = await lockCurrent(tx, resource.resourceType, id);
      checkIfMatch(current, options.ifMatch);
      const stored = this.prepareVersion(resource, id);
      await upsertVersion(tx, stored, this.context.project);
      this.cache?.invalidate(`${resource.resourceType}/${id}`);
      return { resource: stored, created: !current || current.deleted };
    });
  }

  async patchResource<T extends Resource>(
    resourceType: string,
    id: string,
    patch: readonly Operation[],
    options: WriteOptions = {},
  ): Promise<T> {
    checkResourceType(resourceType);
    return this.run(async (tx) => {
      const current = await lockCurrent(tx, resourceType, id);
      if (!current) {
        throw new OperationOutcomeError(notFound);
      }
      if (current.deleted) {
        throw new OperationOutcomeError(gone);
      }
      checkIfMatch(current, options.ifMatch);
      const patched = applyJsonPatch(current.content as T, patch);
      if (patched.resourceType !== resourceType || patched.id !== id) {
        throw new OperationOutcomeError(badRequest('JSON Patch must not change resourceType or id'));
      }
      const stored = this.prepareVersion(patched, id);
      await upsertVersion(tx, stored, this.context.project);
      this.cache?.invalidate(`${resourceType}/${id}`);
      return stored;
    });
  }

  /** Marks the resource deleted; its history stays readable. Deleting a deleted resource changes nothing. */
  async deleteResource(resourceType: string, id: string, options: WriteOptions = {}): Promise<void> {
    checkResourceType(resourceType);
    await this.run(async (tx) => {
      const current = await lockCurrent(tx, resourceType, id);
      if (!current) {
        throw new OperationOutcomeError(notFound);
      }
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
      this.cache?.invalidate(`${resourceType}/${id}`);
    });
  }

  /** Every version of one resource, newest first. */
  async readHistory(resourceType: string, id: string, page: PageRequest): Promise<Page<HistoryRecord>> {
    checkResourceType(resourceType);
    const exists = await this.connection.query(
      'SELECT 1 FROM resource WHERE resource_type = $1 AND id = $2',
      [resourceType, id],
    );
    if (exists.rows.length === 0) {
      throw new OperationOutcomeError(notFound);
    }
    return this.queryHistory('h.resource_type = $1 AND h.id = $2', [resourceType, id], page);
  }

  /** Every version of every resource of a type, newest first. */
  async readTypeHistory(resourceType: string, page: PageRequest): Promise<Page<HistoryRecord>> {
    checkResourceType(resourceType);
    return this.queryHistory('h.resource_type = $1', [resourceType], page);
  }

  private async queryHistory(
    where: string,
    params: string[],
    page: PageRequest,
  ): Promise<Page<HistoryRecord>> {
    const n = params.length;
    const { rows } = await this.connection.query<HistoryRow>(
      `SELECT h.resource_type, h.id, h.version_id, h.content, h.last_updated, h.deleted,
         NOT EXISTS (SELECT 1 FROM resource_history e
                     WHERE e.resource_type = h.resource_type AND e.id = h.id AND e.seq < h.seq) AS first
       FROM resource_history h WHERE ${where}
       ORDER BY h.seq DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, page.count + 1, page.offset],
    );
    return {
      items: rows.slice(0, page.count).map(toHistoryRecord),
      hasMore: rows.length > page.count,
    };
  }

  /** The newest live resources of a type: the plain list that stands in for search until search exists. */
  async listNewest<T extends Resource>(resourceType: string, page: PageRequest): Promise<Page<T>> {
    checkResourceType(resourceType);
    const { rows } = await this.connection.query<{ content: T }>(
      `SELECT content FROM resource WHERE resource_type = $1 AND NOT deleted
       ORDER BY seq DESC LIMIT $2 OFFSET $3`,
      [resourceType, page.count + 1, page.offset],
    );
    return { items: rows.slice(0, page.count).map((row) => row.content), hasMore: rows.length > page.count };
  }

  /** $validate: all OK, or an outcome listing every problem. Stores nothing. */
  validate(resource: unknown): OperationOutcome {
    checkResourceShape(resource);
    const issues = validateResource(resource);
    return issues.length === 0 ? allOk : validationOutcome(issues);
  }

  /** The resource as it will be stored: id, server-managed meta, validated, with its compartments. */
  private prepareVersion<T extends Resource>(resource: T, id: string): T {
    const meta: Meta = {
      ...resource.meta,
      versionId: crypto.randomUUID(),
      lastUpdated: new Date().toISOString(),
      author: this.context.author,
    };
    // Project and compartments are the server's to set, never the client's.
    delete meta.project;
    delete meta.compartment;
    if (this.context.project) {
      meta.project = this.context.project;
    }
    const candidate = { ...resource, id, meta } as T;
    assertValidResource(candidate);
    const compartments = getPatientCompartments(candidate);
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

/** Holds a per-type lock until the transaction ends, so two concurrent conditional creates cannot both create. */
async function findMatchingIn<T extends Resource>(
  tx: Queryable,
  resourceType: string,
  ifNoneExist: string,
): Promise<T | undefined> {
  checkResourceType(resourceType);
  const criteria = parseConditionalCriteria(ifNoneExist, 2);
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`conditional-create:${resourceType}`]);
  const { rows } = await tx.query<{ content: T }>(
    `SELECT content FROM resource WHERE resource_type = $1 AND NOT deleted AND ${criteria.where.join(' AND ')} LIMIT 2`,
    [resourceType, ...criteria.params],
  );
  if (rows.length > 1) {
    throw new OperationOutcomeError(
      preconditionFailed(`If-None-Exist matched more than one ${resourceType}: ${ifNoneExist}`),
    );
  }
  return rows[0]?.content;
}

async function lockCurrent(tx: Queryable, resourceType: string, id: string): Promise<CurrentRow | undefined> {
  const { rows } = await tx.query<CurrentRow>(
    'SELECT version_id, deleted, content FROM resource WHERE resource_type = $1 AND id = $2 FOR UPDATE',
    [resourceType, id],
  );
  return rows[0];
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

function compartmentStrings(resource: Resource): string[] {
  return (resource.meta?.compartment ?? [])
    .map((ref: Reference) => ref.reference)
    .filter((ref): ref is string => !!ref);
}

// One statement per write: the history row and the current row together, so a plain create needs
// no explicit transaction (a single statement is atomic) and every write saves a round trip.
const INSERT_HISTORY_CTE = `WITH h AS (
  INSERT INTO resource_history (version_id, resource_type, id, content, last_updated, deleted)
  VALUES ($3, $1, $2, $4::jsonb, $5, false) RETURNING seq)`;

async function insertVersion(tx: Queryable, resource: Resource, project: string | undefined): Promise<void> {
  await tx.query(
    `${INSERT_HISTORY_CTE}
     INSERT INTO resource (resource_type, id, version_id, content, last_updated, deleted, project, compartments, seq)
     SELECT $1, $2, $3, $4::jsonb, $5, false, $6, $7::text[], h.seq FROM h`,
    versionParams(resource, project),
  );
}

async function upsertVersion(tx: Queryable, resource: Resource, project: string | undefined): Promise<void> {
  await tx.query(
    `${INSERT_HISTORY_CTE}
     INSERT INTO resource (resource_type, id, version_id, content, last_updated, deleted, project, compartments, seq)
     SELECT $1, $2, $3, $4::jsonb, $5, false, $6, $7::text[], h.seq FROM h
     ON CONFLICT (resource_type, id) DO UPDATE SET
       version_id = EXCLUDED.version_id, content = EXCLUDED.content, last_updated = EXCLUDED.last_updated,
       deleted = false, project = EXCLUDED.project, compartments = EXCLUDED.compartments, seq = EXCLUDED.seq`,
    versionParams(resource, project),
  );
}

function versionParams(resource: Resource, project: string | undefined) {
  const meta = resource.meta as Meta & { versionId: string; lastUpdated: string };
  return [
    resource.resourceType,
    resource.id as string,
    meta.versionId,
    JSON.stringify(resource),
    meta.lastUpdated,
    project ?? null,
    compartmentStrings(resource),
  ];
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
