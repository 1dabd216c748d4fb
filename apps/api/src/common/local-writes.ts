import type { ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import type { NextFunction, Request, Response } from 'express';

/**
 * The writes this api process is making: GraphQL mutations and REST requests other than GET, HEAD
 * and OPTIONS, counted from their start to their answer. A read that may answer later requests
 * from memory (LeaderboardService's board reads, issue #28) is reused only while no write of this
 * process ran since it started, so a client that changed something here and then reads sees its
 * change. Writes of other processes (workers, other api replicas) are not seen here: those readers
 * bound their reuse by time instead.
 *
 * One per process (every app built in it counts, which only ever means fewer reuses).
 */
class LocalWrites {
  private active = 0;
  private counter = 0;

  /** Marks a write as started; the returned function (idempotent) marks it finished. */
  begin(): () => void {
    this.active++;
    this.counter++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      this.counter++;
    };
  }

  /** A number that changes whenever a write starts or ends; null while one is running. */
  epoch(): number | null {
    return this.active > 0 ? null : this.counter;
  }
}

export const localWrites = new LocalWrites();

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * REST writes (uploads, deletions, sign-in): any method but GET, HEAD and OPTIONS, until the
 * answer is sent or the connection closes. GraphQL is left to {@link localWritesPlugin}, which
 * tells a mutation from a query sent with POST.
 */
export function localWritesMiddleware(graphqlPath = '/graphql') {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!READ_METHODS.has(req.method) && req.path !== graphqlPath) {
      const end = localWrites.begin();
      res.once('finish', end);
      res.once('close', end);
    }
    next();
  };
}

/** GraphQL mutations, from the moment the operation is known to the answer. */
export function localWritesPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      let end: (() => void) | null = null;
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === OperationTypeNode.MUTATION) end = localWrites.begin();
        },
        async willSendResponse() {
          end?.();
          end = null;
        },
      };
    },
  };
}
