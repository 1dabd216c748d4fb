import { createParamDecorator, Injectable, type ExecutionContext } from '@nestjs/common';
import { IdentityRepository, ScoreRepository, TaskRepository, type Phase, type Task, type TestSet } from '@podium/db';
import DataLoader from 'dataloader';
import { requestOf } from '../auth/auth.guard';

type CorpusScoreRow = Awaited<ReturnType<ScoreRepository['corpusScoresOf']>>[number];

/** Per-request batch loaders for the list fields of GraphQL types (one query per field per request, not per row). */
export interface Loaders {
  corpusScores: DataLoader<string, CorpusScoreRow[]>;
  task: DataLoader<string, Task | null>;
  phase: DataLoader<string, Phase | null>;
  phasesOfTask: DataLoader<string, Phase[]>;
  testSet: DataLoader<string, TestSet | null>;
  scoredCount: DataLoader<string, number>;
  /** A user's name by id (who closed or published a phase). */
  userName: DataLoader<string, string | null>;
  /** A submission's paper and code links (null: no such submission). */
  submissionLinks: DataLoader<string, { paperUrl: string | null; codeUrl: string | null } | null>;
}

function byKey<T, K>(keys: readonly K[], rows: readonly T[], keyOf: (row: T) => K): (T | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

function groupBy<T, K>(keys: readonly K[], rows: readonly T[], keyOf: (row: T) => K): T[][] {
  const map = new Map<K, T[]>(keys.map((k) => [k, []]));
  for (const r of rows) map.get(keyOf(r))?.push(r);
  return keys.map((k) => map.get(k) ?? []);
}

/**
 * Hands out one set of DataLoaders per request (keyed by the request object, so it dies with
 * it): a list of 100 submissions asks for its corpus scores in one query, not 100.
 */
@Injectable()
export class RequestLoaders {
  private readonly perRequest = new WeakMap<object, Loaders>();

  constructor(
    private readonly tasks: TaskRepository,
    private readonly scores: ScoreRepository,
    private readonly identity: IdentityRepository,
  ) {}

  of(req: object): Loaders {
    let loaders = this.perRequest.get(req);
    if (!loaders) this.perRequest.set(req, (loaders = this.create()));
    return loaders;
  }

  private create(): Loaders {
    return {
      corpusScores: new DataLoader(async (ids) => groupBy(ids, await this.scores.corpusScoresOf(ids), (r) => r.submissionId)),
      task: new DataLoader(async (ids) => byKey(ids, await this.tasks.tasksByIds(ids), (r) => r.id)),
      phase: new DataLoader(async (ids) => byKey(ids, await this.tasks.phasesByIds(ids), (r) => r.id)),
      phasesOfTask: new DataLoader(async (ids) => groupBy(ids, await this.tasks.phasesOfTasks(ids), (r) => r.taskId)),
      testSet: new DataLoader(async (ids) => byKey(ids, await this.tasks.testSetsByIds(ids), (r) => r.id)),
      scoredCount: new DataLoader(async (ids) => {
        const counts = await this.tasks.systemCounts([...ids]);
        return ids.map((id) => counts.get(id) ?? 0);
      }),
      userName: new DataLoader(async (ids) => byKey(ids, await this.identity.namesByIds(ids), (r) => r.id).map((r) => r?.name ?? null)),
      submissionLinks: new DataLoader(async (ids) => byKey(ids, await this.tasks.submissionLinks(ids), (r) => r.id)),
    };
  }
}

/**
 * The request a field resolves for, as the key of its loaders. A custom decorator without data,
 * so the global input pipe (StorableTextPipe) does not walk the request object as an argument.
 */
export const LoaderScope = createParamDecorator((_: unknown, context: ExecutionContext): object => requestOf(context));
