/**
 * Where a CPU profile's time went, by share: self time of each sampled frame, put in the first
 * category whose rule matches the frame (its script URL and function name). For the shares that
 * `npm run bench:scoring` and `bench:platform` print beside their figures (issue #28).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';

export interface ShareRule {
  category: string;
  /** Matches `url + ' ' + functionName` of a frame. */
  test: RegExp;
}

/** Categories of a scoring job or an upload, first match wins; the rest is `other`. Paths match sources and dist/ alike. */
export const SCORING_RULES: readonly ShareRule[] = [
  { category: 'tokenising', test: /libs\/metrics\/(src\/)?(tokenizers|text|token-table)\.[jt]s|plugins\/ter\/.*(normali[sz]e|tokeni[sz]e)/ },
  { category: 'metric kernels', test: /libs\/metrics\// },
  { category: 'parsing uploads', test: /upload-parser\.ts/ },
  { category: 'serialising', test: /score-column\.ts|JSON\.stringify| stringify$|ElementSpool|copyOutputRowHead|encodeValues|encodeStats/ },
  { category: 'decoding', test: /TextDecoder|decode|utf8Slice|toString|JSON\.parse| parse$|pg-types|postgres-array|parseArray/ },
  { category: 'database', test: /node_modules\/(pg|pg-protocol|pg-pool|pg-copy-streams|@prisma|pg-boss)\/|libs\/db\/(src\/)?generated|query_compiler|prisma/ },
  { category: 'loading modules', test: /node:internal\/modules\/|wrapSafe|compileForInternalLoader|readFileUtf8|node:fs readFileSync/ },
  { category: 'sockets', test: /^ writev$|^ writeBuffer$|^ writeUtf8String$|node:net |node:internal\/stream_base_commons/ },
  { category: 'garbage collection', test: /\(garbage collector\)/ },
  { category: 'idle', test: /\(idle\)|\(program\)/ },
];

/** Categories of a board computation (the worker's board thread), first match wins. */
export const BOARD_RULES: readonly ShareRule[] = [
  { category: 'ranking kernels', test: /libs\/ranking\// },
  { category: 'serialising and compressing', test: /JSON\.stringify| stringify$|zlib|brotli|gzip|deflate|serialize|writeValue|leaderboardJson/ },
  { category: 'decoding', test: /TextDecoder|decode|utf8Slice|toString|JSON\.parse| parse$|pg-types|postgres-array|parseArray|score-column\.ts/ },
  { category: 'database', test: /node_modules\/(pg|pg-protocol|pg-pool|@prisma|pg-boss)\/|libs\/db\/|query_compiler|prisma/ },
  { category: 'board assembly', test: /libs\/leaderboard\// },
  { category: 'loading modules', test: /node:internal\/modules\/|wrapSafe|compileForInternalLoader|readFileUtf8|node:fs readFileSync/ },
  { category: 'sockets', test: /^ writev$|^ writeBuffer$|^ writeUtf8String$|node:net |node:internal\/stream_base_commons/ },
  { category: 'garbage collection', test: /\(garbage collector\)/ },
  { category: 'idle', test: /\(idle\)|\(program\)/ },
];

export interface Shares {
  /** Sampled CPU milliseconds (idle excluded). */
  cpuMs: number;
  /** Category → share of `cpuMs` in [0, 1]. */
  shares: Record<string, number>;
  /** The heaviest frames by self time, for the report. */
  top: { frame: string; ms: number }[];
}

/** Self time per category of `profile` (idle and `(program)` are counted apart and left out of the shares). */
export function profileShares(profile: Profiler.Profile, rules: readonly ShareRule[] = SCORING_RULES): Shares {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i];
    if (id === undefined) continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, deltas[i + 1] ?? deltas[i] ?? 0));
  }
  const perCategory = new Map<string, number>();
  const perFrame = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const frame = `${node.callFrame.url} ${node.callFrame.functionName}`;
    const category = rules.find((r) => r.test.test(frame))?.category ?? 'other';
    if (category === 'idle') continue;
    total += us;
    perCategory.set(category, (perCategory.get(category) ?? 0) + us);
    const short = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/|libs\/|apps\/)/, '$1')}:${node.callFrame.lineNumber + 1}`;
    perFrame.set(short, (perFrame.get(short) ?? 0) + us);
  }
  const shares = Object.fromEntries([...perCategory].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, total > 0 ? us / total : 0]));
  const top = [...perFrame].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([frame, us]) => ({ frame, ms: us / 1000 }));
  return { cpuMs: total / 1000, shares, top };
}

/** Runs `fn` under the V8 sampling profiler of this process (what `node --cpu-prof` writes), returning its result and the profile. */
export async function profiled<T>(fn: () => Promise<T>, intervalUs = 500): Promise<{ value: T; profile: Profiler.Profile }> {
  const session = new Session();
  session.connect();
  const post = <R>(method: string, params?: object) =>
    new Promise<R>((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as R))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  try {
    const value = await fn();
    const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
    return { value, profile };
  } finally {
    session.disconnect();
  }
}

/** "kernels 71% · database 12% · …" */
export function formatShares(s: Shares): string {
  return Object.entries(s.shares)
    .map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`)
    .join(' · ');
}

/** Clock ticks a second of /proc's CPU times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU seconds used so far by process `root` and every process below it (their own time and that
 * of their reaped children), from /proc: the database server's share of a measurement.
 */
export function treeCpuSeconds(root: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(name);
      parent.set(pid, Number(fields[1]));
      // utime, stime, cutime, cstime: fields 14–17 of stat, 11–14 after the command.
      cpu.set(pid, (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / USER_HZ);
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += seconds;
        break;
      }
    }
  }
  return total;
}

/**
 * CPU seconds used so far by this process's main thread alone (its JavaScript, and what V8 does
 * on it), from /proc/self/task: beside `process.cpuUsage()`, which also counts V8's helper
 * threads (concurrent marking, parallel scavenges, compilation) and libuv's pool.
 */
export function mainThreadCpuSeconds(): number {
  return statCpuSeconds(`/proc/self/task/${process.pid}/stat`) ?? Number.NaN;
}

/** CPU seconds used so far by process `pid`, every thread it ran (ended ones included), from /proc/PID/stat; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`) ?? 0;
}

/** utime + stime of a /proc stat file (a process's or a thread's), in seconds; null where it may not be read. */
function statCpuSeconds(file: string): number | null {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return null;
  }
}

/**
 * The machine's CPU time so far, from the first line of /proc/stat (`text`: its contents, read
 * when omitted), in seconds: every core's time (user, nice, system, idle, iowait, irq, softirq,
 * steal), the idle part, and the time stolen (the hypervisor ran another guest while one of this
 * machine's cores was ready to run). Steal over a round says how much of a slow round was the host's.
 */
export function machineCpuSeconds(text?: string): { total: number; idle: number; steal: number } {
  const line = (text ?? readFileSync('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) throw new Error(`not /proc/stat's first line: '${line.slice(0, 80)}'`);
  const ticks = fields.slice(1, 9).map(Number);
  if (ticks.some((t) => !Number.isFinite(t))) throw new Error(`not /proc/stat's first line: '${line.slice(0, 80)}'`);
  return { total: ticks.reduce((a, b) => a + b, 0) / USER_HZ, idle: ((ticks[3] ?? 0) + (ticks[4] ?? 0)) / USER_HZ, steal: (ticks[7] ?? 0) / USER_HZ };
}

/** The shares of several profiles together, each weighted by its CPU time (`top`: the heaviest frames over all). */
export function mergeShares(list: readonly Shares[]): Shares {
  const cpuMs = list.reduce((a, s) => a + s.cpuMs, 0);
  const perCategory = new Map<string, number>();
  const perFrame = new Map<string, number>();
  for (const s of list) {
    for (const [k, v] of Object.entries(s.shares)) perCategory.set(k, (perCategory.get(k) ?? 0) + v * s.cpuMs);
    for (const t of s.top) perFrame.set(t.frame, (perFrame.get(t.frame) ?? 0) + t.ms);
  }
  const shares = Object.fromEntries([...perCategory].sort((a, b) => b[1] - a[1]).map(([k, ms]) => [k, cpuMs > 0 ? ms / cpuMs : 0]));
  const top = [...perFrame].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([frame, ms]) => ({ frame, ms }));
  return { cpuMs, shares, top };
}

/**
 * The profiles `node --cpu-prof --cpu-prof-dir=dir` wrote (one per thread: `CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`),
 * split into the processes' main threads (tid 0) and their other threads, each merged with its rules.
 */
export function profilesInDir(dir: string, mainRules: readonly ShareRule[], threadRules: readonly ShareRule[]): { main: Shares | null; threads: Shares | null; files: number } {
  const main: Shares[] = [];
  const threads: Shares[] = [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  for (const file of files) {
    const tid = Number(file.split('.')[4]);
    const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profiler.Profile;
    (tid === 0 ? main : threads).push(profileShares(profile, tid === 0 ? mainRules : threadRules));
  }
  return { main: main.length ? mergeShares(main) : null, threads: threads.length ? mergeShares(threads) : null, files: files.length };
}
