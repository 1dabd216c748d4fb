/** A user's role on the instance (the database enum of the same name; libs/db checks that the two agree). */
export const Role = { ADMIN: 'ADMIN', ORGANISER: 'ORGANISER', PARTICIPANT: 'PARTICIPANT' } as const;
export type Role = (typeof Role)[keyof typeof Role];

/** How long a web session lasts. */
export const SESSION_TTL_MS = 14 * 24 * 3600_000;

/** Who is calling, as authentication resolves a token or session: what every authorization rule reads. */
export interface AuthUser {
  id: string;
  name: string;
  role: Role;
  teamIds: string[];
  /** The tasks the user organises (creator or added); an ADMIN organises every task regardless. */
  organisedTaskIds: string[];
}
