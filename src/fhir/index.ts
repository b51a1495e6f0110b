// The shared FHIR model: pure functions used by server, client and app.
export * from './outcomes';
export * from './references';
export * from './definitions';
export * from './primitives';
export * from './validate';
export * from './compartments';
