// The search request model (SPEC §3) and its URL form (SPEC §7), shared by server, client and app.
export * from './types';
export * from './parameter-types';
export * from './parse';
export * from './format';
export * from './filter-expression';
export * from './not-contains';
