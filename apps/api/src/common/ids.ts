import { NotFoundError } from '@podium/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row, so it is NOT_FOUND rather than a database error. */
export function assertId(what: string, id: string): void {
  if (!UUID.test(id)) throw new NotFoundError(what, id);
}
