import { Role as DomainRole, SubmissionStatus as DomainSubmissionStatus } from '@podium/domain';
import { Role, SubmissionStatus } from './generated/client';

/** The database's enums and libs/domain's vocabulary are one set of values: the state machine's statuses are the stored ones. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const roleAgrees: Same<Role, DomainRole> = true;
const statusAgrees: Same<SubmissionStatus, DomainSubmissionStatus> = true;

describe('libs/domain enums match the Prisma schema', () => {
  it('has the same roles and submission statuses as prisma/schema.prisma', () => {
    expect([roleAgrees, statusAgrees]).toEqual([true, true]); // the types above fail `npm run typecheck` first
    expect(DomainRole).toEqual(Role);
    expect(DomainSubmissionStatus).toEqual(SubmissionStatus);
  });
});
