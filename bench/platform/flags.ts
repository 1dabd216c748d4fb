import { parseArgs } from 'node:util';
import { joinDashValues } from '../../apps/cli/src/flags';

/** Settings of `npm run bench:platform`; see {@link PLATFORM_USAGE}. */
export interface PlatformFlags {
  systems: number;
  instances: number;
  workers: number;
  /** Seconds of each load measurement. */
  duration: number;
  /** The second size is `scale × instances` (1 = no second size). */
  scale: number;
  clients: number;
  /** Requests per second offered by the open-loop measurements. */
  rate: number;
  seed: number;
  help: boolean;
}

export const PLATFORM_USAGE = `usage: npm run bench:platform -- [--systems S] [--instances N] [--workers W] [--duration SECONDS] [--scale K] [--clients C] [--seed X]

  Starts api and worker processes on an embedded PostgreSQL of its own, scores S systems × N
  instances with BLEU, chrF and TER, measures storage, leaderboard and export costs, then the
  same at K × N instances, and prints them against the issue #11 targets.
  --systems S      systems (submissions) per phase, 2..1000 (default 100)
  --instances N    test instances of the measured phase, 10..1000000 (default 10000)
  --workers W      scoring worker processes, 1..16 (default 2)
  --duration SEC   seconds of each load round, 1..600 (default 15): per request kind a warm-up of
                   min(3, SEC) s (not counted), an open-loop round and a closed-loop round
  --scale K        second size K × N to show growth, 1..100; 1 skips it (default 4)
  --clients C      keep-alive clients of the closed-loop rounds (saturation: max req/s and its
                   latencies, not judged), 1..1000 (default 50)
  --rate R         requests/s offered by the open-loop rounds (latency from each request's
                   scheduled time, up to 256 sockets), judged against the targets, 1..100000
                   (default 500, issue #28's rate)
  --seed X         seed of the synthetic data (default 20261124)`;

export const PLATFORM_DEFAULTS: Omit<PlatformFlags, 'help'> = { systems: 100, instances: 10_000, workers: 2, duration: 15, scale: 4, clients: 50, rate: 500, seed: 20261124 };

/** A bad flag: the message names the flag, the allowed range and what was given. */
export class FlagError extends Error {}

/**
 * A numeric flag's value: `fallback` when absent, else the number (digit separators `_` allowed)
 * checked against [min, max] (and to be whole when `integer`); a {@link FlagError} otherwise.
 * Shared by the benchmarks' command lines.
 */
export function numberFlag(name: string, raw: string | undefined, fallback: number, min: number, max: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const text = raw.trim();
  const value = text === '' ? NaN : Number(text.replace(/_/g, ''));
  const kind = integer ? 'an integer' : 'a number';
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new FlagError(`--${name} must be ${kind} from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, got '${raw}'`);
  }
  return value;
}

const OPTIONS = {
  systems: { type: 'string' },
  instances: { type: 'string' },
  workers: { type: 'string' },
  duration: { type: 'string' },
  scale: { type: 'string' },
  clients: { type: 'string' },
  rate: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses and validates the command line (strict: unknown flags and positionals are errors). */
export function parsePlatformFlags(argv: readonly string[]): PlatformFlags {
  let values: Record<string, string | boolean | undefined>;
  try {
    // `--workers -1` is read as a (bad) value, as the CLI reads its flags, not as "ambiguous".
    ({ values } = parseArgs({ args: joinDashValues(argv, OPTIONS), options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new FlagError((e as Error).message.split('\n', 1)[0] ?? String(e));
  }
  const s = (k: string) => values[k] as string | undefined;
  const d = PLATFORM_DEFAULTS;
  const flags: PlatformFlags = {
    systems: numberFlag('systems', s('systems'), d.systems, 2, 1000, true),
    instances: numberFlag('instances', s('instances'), d.instances, 10, 1_000_000, true),
    workers: numberFlag('workers', s('workers'), d.workers, 1, 16, true),
    duration: numberFlag('duration', s('duration'), d.duration, 1, 600, false),
    scale: numberFlag('scale', s('scale'), d.scale, 1, 100, false),
    clients: numberFlag('clients', s('clients'), d.clients, 1, 1000, true),
    rate: numberFlag('rate', s('rate'), d.rate, 1, 100_000, false),
    seed: numberFlag('seed', s('seed'), d.seed, 0, 0x7fffffff, true),
    help: values['help'] === true,
  };
  if (Math.round(flags.instances * flags.scale) > 10_000_000) {
    throw new FlagError(`--instances × --scale must stay ≤ 10,000,000 instances, got ${flags.instances} × ${flags.scale}`);
  }
  return flags;
}
