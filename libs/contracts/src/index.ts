export * from './queue';
export * from './metric-config';
