/** Nest injection tokens of the worker. */
export const NLI_SCORER = Symbol('NLI_SCORER');
export const EMBEDDING_SCORER = Symbol('EMBEDDING_SCORER');
export const PG_BOSS = Symbol('PG_BOSS');
export const WORKER_CONFIG = Symbol('WORKER_CONFIG');
