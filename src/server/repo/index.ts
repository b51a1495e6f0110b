export { systemContext } from './context';
export type { AccessContext, RepositoryContext } from './context';
export { applyJsonPatch, parseJsonPatch } from './json-patch';
export { BulkWriteError, Repository } from './repository';
export type {
  BulkUpdate,
  HistoryRecord,
  Page,
  PageRequest,
  RepositorySettings,
  StoredUrlRewriter,
  WriteOptions,
  WriteResult,
} from './repository';
export type { ResourceJson } from './resource-cache';
