export { systemContext } from './context';
export type { AccessContext, RepositoryContext } from './context';
export { applyJsonPatch, parseJsonPatch } from './json-patch';
export { Repository } from './repository';
export type { HistoryRecord, Page, PageRequest, WriteOptions, WriteResult } from './repository';
export type { ResourceJson } from './resource-cache';
