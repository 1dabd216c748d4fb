/** Injection tokens for values that have no class of their own. */
export const API_CONFIG = Symbol('ApiConfig');
export const DB = Symbol('Db');
