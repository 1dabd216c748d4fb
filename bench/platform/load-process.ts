/**
 * bench:platform's load generator in a process of its own (issue #28): the judged rounds
 * (runOpenLoad, then runLoad's saturation round) sent from a lean process rather than from the
 * bench's, whose heap holds the phase's test data and parsed profiles. Receiving 300 KiB answers
 * at 500 req/s took the bench's own process a whole core (1.00–1.05 cores in the cached rounds of
 * 2026-11-28: each answer's buffers are external memory, and external memory brings on full
 * collections of that heap) against about a quarter of one in bench:serving's smaller process;
 * the generator then sent hundreds of requests late, and their delay counted as the api's.
 * {@link startLoadProcess} forks it (through @swc-node/register, as the bench runs), waits for it
 * to say it is ready, and runs rounds in it one at a time, with {@link LOAD_GENERATOR_FLAGS}.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { assertLoadGeneratorFlags, LOAD_GENERATOR_FLAGS, runLoad, runOpenLoad, type LoadRequest, type LoadResult, type OpenLoadResult } from './load';

type Command = { kind: 'open'; request: LoadRequest; rate: number; seconds: number; maxSockets: number } | { kind: 'closed'; request: LoadRequest; clients: number; seconds: number };
type Reply = { kind: 'ready' } | { kind: 'open'; result: OpenLoadResult } | { kind: 'closed'; result: LoadResult } | { kind: 'error'; message: string };

export interface LoadProcess {
  pid: number;
  open(request: LoadRequest, rate: number, seconds: number, maxSockets: number): Promise<OpenLoadResult>;
  closed(request: LoadRequest, clients: number, seconds: number): Promise<LoadResult>;
  stop(): Promise<void>;
}

function next(child: ChildProcess): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Reply) => {
      child.off('exit', onExit);
      resolve(m);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the load generator exited (${code ?? 'signal'}) before it answered`));
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}

async function ask<T extends Reply['kind']>(child: ChildProcess, command: Command, kind: T): Promise<Extract<Reply, { kind: T }>> {
  const reply = next(child);
  child.send(command);
  const m = await reply;
  if (m.kind === 'error') throw new Error(`the load generator failed: ${m.message}`);
  if (m.kind !== kind) throw new Error(`the load generator answered ${m.kind} to ${command.kind}`);
  return m as Extract<Reply, { kind: T }>;
}

/** Forks the load generator and resolves once it is ready for its first round. */
export async function startLoadProcess(): Promise<LoadProcess> {
  const child = fork(__filename, [], { execArgv: [...LOAD_GENERATOR_FLAGS, '-r', '@swc-node/register'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await next(child);
  if (ready.kind === 'error') throw new Error(`the load generator did not start: ${ready.message}`);
  if (ready.kind !== 'ready') throw new Error(`the load generator said ${ready.kind} first`);
  return {
    pid: child.pid ?? 0,
    open: async (request, rate, seconds, maxSockets) => (await ask(child, { kind: 'open', request, rate, seconds, maxSockets }, 'open')).result,
    closed: async (request, clients, seconds) => (await ask(child, { kind: 'closed', request, clients, seconds }, 'closed')).result,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (require.main === module) main();

function main(): void {
  const send = (m: Reply) => process.send?.(m);
  try {
    assertLoadGeneratorFlags();
  } catch (e) {
    // Said to the bench, then gone: a generator without its flags measures nothing.
    process.send?.({ kind: 'error', message: e instanceof Error ? e.message : String(e) } satisfies Reply, () => process.exit(2));
    return;
  }
  process.on('message', (command: Command) => {
    const round = command.kind === 'open' ? runOpenLoad(command.request, command.rate, command.seconds, command.maxSockets).then((result): Reply => ({ kind: 'open', result })) : runLoad(command.request, command.clients, command.seconds).then((result): Reply => ({ kind: 'closed', result }));
    round.then(send, (e: unknown) => send({ kind: 'error', message: e instanceof Error ? e.message : String(e) }));
  });
  process.on('disconnect', () => process.exit(0));
  send({ kind: 'ready' });
}
