export * from './queue';
export * from './metric-config';
export * from './robustness';
export * from './test-set-commitment';
export * from './csv';
export * from './at';
export * from './task-bundle';
