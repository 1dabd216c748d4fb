/**
 * A small network of Linux network namespaces for partition tests (`npm run bench:faults --
 * --partitions`, test/e2e/netns.e2e.spec.ts): one namespace per process (PostgreSQL, api,
 * workers), each with a back link (a veth pair) to a bridge in a hub namespace on a private /24;
 * the caller's own namespace joins that bridge too (it observes the database), and a node may
 * also have a front link, a point-to-point veth to the caller (the api: probed while its back
 * link is cut). Links are cut by setting the hub's end down (the node keeps its address and
 * route, packets are dropped silently, as in a real partition: TCP retransmits, connects time
 * out), healed by setting it up, and impaired (delay, loss) with `tc … netem` where the kernel
 * has it, otherwise through an emulated link (a pair of TAP devices joined by
 * test/support/netns-link.py, which delays and drops frames). Everything is created with
 * iproute2 (`ip`, `tc`) as root and removed by `destroy()`, which also runs when the process
 * exits (SIGINT/SIGTERM included, see `destroyOnExit`).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const run = (args: string[]): string => execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const tryRun = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** Whether namespaces can be made here; `reason` says why not (for a skipped test). */
export function netnsSupport(): { ok: true } | { ok: false; reason: string } {
  if (process.platform !== 'linux') return { ok: false, reason: `network namespaces are Linux-only (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'not root: creating network namespaces needs CAP_NET_ADMIN (run as root)' };
  const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (ip.error || ip.status !== 0) return { ok: false, reason: 'no `ip` (iproute2) on PATH: apt-get install iproute2' };
  const probe = `pdmprobe${randomBytes(3).toString('hex')}`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return { ok: false, reason: `\`ip netns add\` fails here: ${made.stderr.trim()}` };
  tryRun('ip', ['netns', 'del', probe]);
  return { ok: true };
}

export interface LabNode {
  name: string;
  /** The namespace's name (`ip netns exec <ns> …`). */
  ns: string;
  /** Its address on the back network (the bridge). */
  address: string;
  /** Its address on its front link, when it has one (reachable only from the caller). */
  frontAddress?: string;
}

interface NodeState extends LabNode {
  /** The hub's end of the back link (in the hub namespace). */
  port: string;
  /** The caller's end of the front link (in the caller's namespace). */
  frontPort?: string;
  emulator?: ChildProcess;
  cut: boolean;
  impaired: boolean;
}

export interface Impairment {
  /** Added to each direction, in ms. */
  delayMs: number;
  /** Frames dropped in each direction, percent. */
  lossPercent: number;
}

const labs = new Set<NetLab>();
let exitHooked = false;

/**
 * Removes every lab still up when the process exits, and on SIGINT/SIGTERM (then exits 130/143).
 * Registered by the first `NetLab.create`.
 */
function destroyOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const lab of labs) lab.destroy();
  });
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      process.stderr.write(`[netns] ${signal}: removing namespaces\n`);
      for (const lab of labs) lab.destroy();
      process.exit(code);
    });
  }
}

export class NetLab {
  private readonly nodes = new Map<string, NodeState>();
  private readonly children = new Set<ChildProcess>();
  private readonly paths: string[] = [];
  private destroyed = false;
  /** Whether `tc … netem` works in this kernel (otherwise impaired links are emulated). */
  readonly netem: boolean;

  private constructor(
    /** Short random tag in every name this lab makes (`pdm<tag>…`). */
    readonly tag: string,
    /** The back network's first three octets, e.g. `10.203.17`. */
    readonly subnet: string,
    private readonly frontSubnet: string,
  ) {
    this.hubNs = `pdm${tag}-hub`;
    this.hostPort = `pdm${tag}h`;
    labs.add(this);
    destroyOnExit();
    try {
      run(['netns', 'add', this.hubNs]);
      run(['-n', this.hubNs, 'link', 'set', 'lo', 'up']);
      run(['-n', this.hubNs, 'link', 'add', 'br0', 'type', 'bridge']);
      run(['-n', this.hubNs, 'link', 'set', 'br0', 'up']);
      // Bridged frames never go through iptables here (br_netfilter would, in some hosts).
      spawnSync('ip', ['netns', 'exec', this.hubNs, 'sysctl', '-qw', 'net.bridge.bridge-nf-call-iptables=0'], { stdio: 'ignore' });
      // The caller's link to the bridge, never cut: it observes the database.
      run(['link', 'add', this.hostPort, 'type', 'veth', 'peer', 'name', 'p-host', 'netns', this.hubNs]);
      run(['-n', this.hubNs, 'link', 'set', 'p-host', 'master', 'br0', 'up']);
      run(['addr', 'add', `${this.hostAddress}/24`, 'dev', this.hostPort]);
      run(['link', 'set', this.hostPort, 'up']);
      this.netem = tryRun('ip', ['netns', 'exec', this.hubNs, 'tc', 'qdisc', 'add', 'dev', 'p-host', 'root', 'netem', 'delay', '1ms']);
      if (this.netem) tryRun('ip', ['netns', 'exec', this.hubNs, 'tc', 'qdisc', 'del', 'dev', 'p-host', 'root']);
    } catch (e) {
      this.destroy();
      throw e;
    }
  }

  readonly hubNs: string;
  private readonly hostPort: string;

  /** The caller's address on the back network. */
  get hostAddress(): string {
    return `${this.subnet}.1`;
  }

  /** A new lab on a free private /24 (10.203.x.0/24, fronts on 10.204.x.0/24). */
  static create(): NetLab {
    const support = netnsSupport();
    if (!support.ok) throw new Error(support.reason);
    const used = run(['-4', '-o', 'addr', 'show']);
    for (let attempt = 0; attempt < 50; attempt++) {
      const x = 16 + ((process.pid + attempt * 37 + randomBytes(1).readUInt8(0)) % 224);
      if (used.includes(` 10.203.${x}.`) || used.includes(` 10.204.${x}.`)) continue;
      return new NetLab(randomBytes(2).toString('hex'), `10.203.${x}`, `10.204.${x}`);
    }
    throw new Error('no free 10.203.x.0/24 for a network lab');
  }

  /**
   * A namespace joined to the bridge. `front`: also a point-to-point link to the caller.
   * `emulated`: its back link is a TAP pair joined by netns-link.py (impairable without netem).
   */
  addNode(name: string, opts: { front?: boolean; emulated?: boolean } = {}): LabNode {
    if (!/^[a-z][a-z0-9]{0,9}$/.test(name)) throw new Error(`node name '${name}': lower-case letters and digits, at most 10`);
    if (this.nodes.has(name)) throw new Error(`node '${name}' exists`);
    const index = this.nodes.size;
    const ns = `pdm${this.tag}-${name}`;
    const port = `p-${name}`;
    const node: NodeState = { name, ns, address: `${this.subnet}.${10 + index}`, port, cut: false, impaired: false };
    this.nodes.set(name, node);
    run(['netns', 'add', ns]);
    run(['-n', ns, 'link', 'set', 'lo', 'up']);
    if (opts.emulated) {
      node.emulator = this.startEmulator(ns, port);
    } else {
      run(['-n', this.hubNs, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
    }
    run(['-n', this.hubNs, 'link', 'set', port, 'master', 'br0', 'up']);
    run(['-n', ns, 'addr', 'add', `${node.address}/24`, 'dev', 'eth0']);
    run(['-n', ns, 'link', 'set', 'eth0', 'up']);
    if (opts.front) {
      const j = [...this.nodes.values()].filter((n) => n.frontPort).length;
      if (j >= 60) throw new Error('too many front links');
      node.frontPort = `pdm${this.tag}f${j}`;
      node.frontAddress = `${this.frontSubnet}.${4 * j + 2}`;
      run(['link', 'add', node.frontPort, 'type', 'veth', 'peer', 'name', 'front0', 'netns', ns]);
      run(['addr', 'add', `${this.frontSubnet}.${4 * j + 1}/30`, 'dev', node.frontPort]);
      run(['link', 'set', node.frontPort, 'up']);
      run(['-n', ns, 'addr', 'add', `${node.frontAddress}/30`, 'dev', 'front0']);
      run(['-n', ns, 'link', 'set', 'front0', 'up']);
    }
    return { name, ns, address: node.address, ...(node.frontAddress ? { frontAddress: node.frontAddress } : {}) };
  }

  private startEmulator(ns: string, port: string): ChildProcess {
    // Its errors go to a file: the wait below is synchronous, so no pipe would be read meanwhile.
    const errors = path.join(tmpdir(), `${ns}-link.err`);
    const fd = openSync(errors, 'w');
    const child = spawn('python3', [path.join(__dirname, 'netns-link.py'), `/run/netns/${ns}`, 'eth0', `/run/netns/${this.hubNs}`, port], { stdio: ['pipe', 'ignore', fd] });
    closeSync(fd);
    this.children.add(child);
    // Wait (synchronously, as the rest of the set-up) for both TAP devices to exist; a busy
    // machine may take seconds to start Python.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (tryRun('ip', ['-n', ns, 'link', 'show', 'eth0']) && tryRun('ip', ['-n', this.hubNs, 'link', 'show', port])) return child;
      if (readFileSync(errors, 'utf8').trim()) break;
      spawnSync('sleep', ['0.2']);
    }
    throw new Error(`the emulated link of ${ns} did not come up (python3 netns-link.py): ${readFileSync(errors, 'utf8').trim() || 'no error, timed out'}`);
  }

  private node(name: string): NodeState {
    const n = this.nodes.get(name);
    if (!n) throw new Error(`no node '${name}'`);
    return n;
  }

  /** Cuts a node's back link (or its front link): packets in both directions are dropped. */
  cut(name: string, which: 'back' | 'front' = 'back'): void {
    const n = this.node(name);
    if (which === 'front') run(['link', 'set', n.frontPort ?? '', 'down']);
    else {
      run(['-n', this.hubNs, 'link', 'set', n.port, 'down']);
      n.cut = true;
    }
  }

  heal(name: string, which: 'back' | 'front' = 'back'): void {
    const n = this.node(name);
    if (which === 'front') run(['link', 'set', n.frontPort ?? '', 'up']);
    else {
      run(['-n', this.hubNs, 'link', 'set', n.port, 'up']);
      n.cut = false;
    }
  }

  /** Delay and loss on a node's back link, both directions (`null`: clear). */
  impair(name: string, impairment: Impairment | null): void {
    const n = this.node(name);
    if (n.emulator) {
      n.emulator.stdin?.write(`${JSON.stringify(impairment ?? { delayMs: 0, lossPercent: 0 })}\n`);
      n.impaired = impairment !== null;
      return;
    }
    if (!this.netem) throw new Error(`this kernel has no netem qdisc: add node '${name}' with { emulated: true } to impair its link`);
    const ends: [string, string][] = [[this.hubNs, n.port], [n.ns, 'eth0']];
    for (const [ns, dev] of ends) {
      if (n.impaired) tryRun('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'del', 'dev', dev, 'root']);
      if (impairment) execFileSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', dev, 'root', 'netem', 'delay', `${impairment.delayMs}ms`, 'loss', `${impairment.lossPercent}%`]);
    }
    n.impaired = impairment !== null;
  }

  /** A file or folder that `destroy()` removes (a database's data, a configuration written for the lab). */
  removeOnDestroy(p: string): void {
    this.paths.push(p);
  }

  /** Runs `argv` inside a node's namespace; the child is stopped by `destroy()` if still running. */
  spawn(name: string, argv: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', this.node(name).ns, ...argv], { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Runs a short command in a node's namespace and returns its exit status. */
  exec(name: string, argv: string[], timeoutMs = 10_000): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync('ip', ['netns', 'exec', this.node(name).ns, ...argv], { encoding: 'utf8', timeout: timeoutMs });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  /** The namespaces, veths, qdiscs (they go with their devices) and processes of this lab. */
  names(): { namespaces: string[]; hostLinks: string[] } {
    return {
      namespaces: [this.hubNs, ...[...this.nodes.values()].map((n) => n.ns)],
      hostLinks: [this.hostPort, ...[...this.nodes.values()].flatMap((n) => (n.frontPort ? [n.frontPort] : []))],
    };
  }

  /**
   * Removes everything, synchronously (it also runs from an exit handler): processes still
   * running in the lab's namespaces (SIGKILL, by pid), the emulators, the namespaces (with their
   * devices and qdiscs) and the caller's ends of the links. Idempotent.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    labs.delete(this);
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    const { namespaces, hostLinks } = this.names();
    for (const ns of namespaces) {
      const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout?.split(/\s+/).filter(Boolean) ?? [];
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    for (const ns of namespaces) tryRun('ip', ['netns', 'del', ns]);
    for (const link of hostLinks) tryRun('ip', ['link', 'del', link]);
    for (const p of this.paths) rmSync(p, { recursive: true, force: true });
  }
}
