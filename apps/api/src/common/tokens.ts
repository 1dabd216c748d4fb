/** Injection tokens for values that have no class of their own. */
export const API_CONFIG = Symbol('ApiConfig');
export const DB = Symbol('Db');
/** The pg-boss schema the API sends jobs to (`pgboss` unless a test moves it). */
export const QUEUE_SCHEMA = Symbol('QUEUE_SCHEMA');
