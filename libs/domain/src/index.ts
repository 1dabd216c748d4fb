export * from './errors';
export * from './identity';
export * from './credentials';
export * from './name-key';
export * from './submission-state';
export * from './phase-state';
