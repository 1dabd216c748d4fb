// GraphQL answers of stored boards, cached (issue #28): a 100-system board's systems are some
// 2,300 fields, whose execution by graphql-js cost ~4 ms of CPU per request for an answer that
// only changes with the board. See docs/adr/0039-cached-board-answers.md.
import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@podium/domain';
import * as lb from '@podium/leaderboard';
import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import type { ViewerRole } from '../common/visibility';
import type { LeaderboardOptions, LeaderboardSnapshot } from './leaderboard.service';
import { documentCoordinates } from './zod-graphql';

/**
 * The fields whose values are a function of the stored board alone (and of the query's
 * arguments): every field of the board's document, `Leaderboard.pairs` and `pairCount` (sliced
 * from the document or from the board row's immutable tiles) and the deprecated `SystemPair.tests`
 * (made from the pair's `testResults`). An operation that selects anything else (the live
 * `LeaderboardSystem.paperUrl` and `codeUrl`, a field added later) is never cached: a field
 * resolver must be listed here, by name, to be cached.
 */
export const BOARD_COORDINATES: ReadonlySet<string> = new Set([
  ...documentCoordinates([lb.leaderboardSchema, lb.systemPairSchema]),
  'Leaderboard.pairCount',
  'SystemPair.tests',
  ...lb.PAIRED_TESTS.map((t) => `PairTests.${lb.pairTestField(t.key)}`),
]);

/** JSON characters of answers kept (twice as many bytes of heap). */
const CACHE_JSON_CHARS = 16 * 1024 * 1024;
/** Larger answers (a board's every pair) are not kept: the pair tiles' REST route serves those. */
const MAX_ANSWER_JSON_CHARS = 2 * 1024 * 1024;

/** What the `leaderboard` query's resolver reads for one root field (LeaderboardService.view). */
export type ViewBoard = (phaseId: string, options: LeaderboardOptions, user: AuthUser | null) => Promise<{ snapshot: LeaderboardSnapshot; viewer: ViewerRole }>;

/** The `leaderboard` query's arguments as its resolver receives them, to the service's options (one mapping for both). */
export function leaderboardOptions(args: { metric?: string | null; test?: lb.PairedTest | null; correction?: lb.PValueCorrection | null; seed?: number | null; resamples?: number | null; allSubmissions?: boolean | null }): LeaderboardOptions {
  return {
    metric: args.metric ?? undefined,
    test: args.test ?? undefined,
    correction: args.correction ?? undefined,
    seed: args.seed ?? undefined,
    resamples: args.resamples ?? undefined,
    entries: args.allSubmissions === true ? 'all' : 'primary',
  };
}

/** One root `leaderboard` field as served: the caller's role, the board's row and ETag. */
export function servedPart(viewer: ViewerRole, snapshot: Pick<LeaderboardSnapshot, 'boardId' | 'etag'>): string {
  return `${viewer} ${snapshot.boardId ?? '-'} ${snapshot.etag}`;
}

/**
 * The root `leaderboard` fields of a query that selects nothing but board fields
 * ({@link BOARD_COORDINATES}, fragments expanded, `__typename` too); null for any other operation.
 */
export function cacheableRoots(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, allowed: ReadonlySet<string> = BOARD_COORDINATES): FieldNode[] | null {
  const query = schema.getQueryType();
  if (operation.operation !== OperationTypeNode.QUERY || !query) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const roots: FieldNode[] = [];
  for (const sel of operation.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.name.value !== 'leaderboard' || (sel.directives?.length ?? 0) > 0 || !sel.selectionSet) return null;
    roots.push(sel);
  }
  const board = query.getFields()['leaderboard'];
  const boardType = board ? getNamedType(board.type) : undefined;
  if (roots.length === 0 || !boardType || !isObjectType(boardType)) return null;
  const onlyBoardFields = (type: GraphQLObjectType, set: SelectionSetNode, spread: ReadonlySet<string>): boolean =>
    set.selections.every((sel) => {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name === '__typename') return true;
        if (!allowed.has(`${type.name}.${name}`)) return false;
        const next = type.getFields()[name];
        const named = next ? getNamedType(next.type) : undefined;
        if (!sel.selectionSet) return true;
        return named !== undefined && isObjectType(named) && onlyBoardFields(named, sel.selectionSet, spread);
      }
      const fragment = sel.kind === Kind.INLINE_FRAGMENT ? sel : fragments.get(sel.name.value);
      if (!fragment || (sel.kind === Kind.FRAGMENT_SPREAD && spread.has(sel.name.value))) return false;
      const on = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
      return on === type && onlyBoardFields(type, fragment.selectionSet, sel.kind === Kind.FRAGMENT_SPREAD ? new Set([...spread, sel.name.value]) : spread);
    });
  return roots.every((r) => r.selectionSet && onlyBoardFields(boardType, r.selectionSet, new Set())) ? roots : null;
}

/** The part of an Express response a kept answer is sent through. */
interface Sendable {
  send(body: unknown): unknown;
}

const isSendable = (res: unknown): res is Sendable => typeof res === 'object' && res !== null && typeof (res as Partial<Sendable>).send === 'function';

/** Apollo's serialisation of an answer without errors (`prettyJSONStringify` of `{ data }`): what a kept answer is sent as. */
export function answerJson(data: Record<string, unknown>): string {
  return `${JSON.stringify({ data })}\n`;
}

/**
 * The cache: an answer by the query's text (a persisted query's too), operation name and variables, and for
 * each root `leaderboard` field the caller's role towards the phase and the board served
 * (row and ETag, which change with every stored board). A cached answer is used only for a caller
 * whose own read of each board (visibility checks included) gives the same role and board, and an
 * answer is kept only when the resolvers served exactly the boards its key names. Kept answers are
 * their JSON text, sent through the request's Express response in place of a marker.
 */
@Injectable()
export class BoardAnswers {
  /** Kept answers as sent (JSON text: serialising 36 KiB of board again cost half of a kept answer's CPU). */
  private readonly answers = new LRUCache<string, string>({ maxSize: CACHE_JSON_CHARS, maxEntrySize: MAX_ANSWER_JSON_CHARS, sizeCalculation: (json) => Math.max(1, json.length) });
  /** Per parsed operation (Apollo keeps parsed documents): its cacheable roots, or null. */
  private readonly plans = new WeakMap<OperationDefinitionNode, FieldNode[] | null>();
  /** Per GraphQL request (its context object): the boards the `leaderboard` resolver served. */
  private readonly served = new WeakMap<object, string[]>();
  /**
   * What Apollo sends for a kept answer (its `data` is this marker) and the response then swaps for
   * the kept text: only a body exactly equal to it is swapped, so an error Apollo sends instead
   * goes out as it is. Random per process: no query can make an answer equal to it.
   */
  private readonly marker = { podiumKeptAnswer: randomUUID() };
  private readonly markerJson = answerJson(this.marker);

  /** Called by the `leaderboard` resolver for every board it serves. */
  noteServed(context: object, viewer: ViewerRole, snapshot: Pick<LeaderboardSnapshot, 'boardId' | 'etag'>): void {
    const list = this.served.get(context);
    if (list) list.push(servedPart(viewer, snapshot));
    else this.served.set(context, [servedPart(viewer, snapshot)]);
  }

  /** Answers kept (for tests). */
  get size(): number {
    return this.answers.size;
  }

  /**
   * The Apollo plugin: after the operation's checks (limits, deny by default), a cacheable query
   * reads each of its boards as its resolver would, for the caller; a kept answer for the same key
   * is sent without executing; otherwise the executed answer, without errors, is kept.
   */
  plugin(authenticate: (req: unknown) => Promise<AuthUser | null>, view: ViewBoard): ApolloServerPlugin<{ req?: unknown; res?: unknown }> {
    return {
      requestDidStart: async () => {
        let pending: { key: string; parts: string[] } | null = null;
        return {
          responseForOperation: async (ctx) => {
            const res = ctx.contextValue.res;
            if (!isSendable(res)) return null;
            const key = await this.keyOf(ctx, authenticate, view);
            if (!key) return null;
            const hit = this.answers.get(key.key);
            if (hit === undefined) {
              pending = key;
              return null;
            }
            // Apollo serialises the marker; the response sends the kept text in its place.
            const send = res.send.bind(res);
            res.send = (body: unknown) => send(body === this.markerJson ? hit : body);
            return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: this.marker } } };
          },
          willSendResponse: async ({ response, contextValue }) => {
            if (!pending || response.body.kind !== 'single') return;
            const { data, errors, extensions } = response.body.singleResult;
            const served = this.served.get(contextValue) ?? [];
            if (errors || extensions || !data || !sameParts(served, pending.parts)) return;
            const json = answerJson(data);
            if (json.length <= MAX_ANSWER_JSON_CHARS) this.answers.set(pending.key, json);
          },
        };
      },
    };
  }

  /** The cache key of a request, or null when it is not cacheable or any read fails (execution then reports why). */
  private async keyOf(ctx: GraphQLRequestContext<{ req?: unknown; res?: unknown }>, authenticate: (req: unknown) => Promise<AuthUser | null>, view: ViewBoard): Promise<{ key: string; parts: string[] } | null> {
    const { operation, document, schema, request, source } = ctx;
    if (!operation || !document || source === undefined) return null;
    let roots = this.plans.get(operation);
    if (roots === undefined) {
      roots = cacheableRoots(schema, document, operation);
      this.plans.set(operation, roots);
    }
    const field = schema.getQueryType()?.getFields()['leaderboard'];
    if (!roots || !field) return null;
    try {
      const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
      if (variables.errors) return null;
      const user = await authenticate(ctx.contextValue.req);
      const parts: string[] = [];
      for (const root of roots) {
        const args = getArgumentValues(field, root, variables.coerced) as Parameters<typeof leaderboardOptions>[0] & { phaseId: string };
        const { snapshot, viewer } = await view(args.phaseId, leaderboardOptions(args), user);
        parts.push(servedPart(viewer, snapshot));
      }
      return { key: JSON.stringify([source, request.operationName ?? null, request.variables ?? {}, parts]), parts };
    } catch {
      return null;
    }
  }
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}
