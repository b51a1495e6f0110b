export * from './connection';
export * from './hub-calls';
export * from './types';
