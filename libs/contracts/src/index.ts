export * from './queue';
export * from './metric-config';
export * from './robustness';
