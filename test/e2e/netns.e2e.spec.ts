/**
 * The partition harness itself (test/support/netns.ts, used by `npm run bench:faults --
 * --partitions`): two namespaces on the lab's bridge reach each other and the caller; cutting
 * one's link stops TCP in both directions (a connect times out rather than being refused),
 * healing restores it, and `destroy()` leaves no namespace, link or process behind. Skipped,
 * saying why, where namespaces cannot be made (not root, no iproute2, not Linux).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { NetLab, netnsSupport } from '../support/netns';

const support = netnsSupport();
const describeIfNetns = support.ok ? describe : describe.skip;
const reason = support.ok ? '' : ` (skipped: ${support.reason})`;

/** 'connected', 'refused' or 'timeout' for a TCP connect from this process. */
function tcpProbe(host: string, port: number, timeoutMs = 1500): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const done = (r: string) => {
      s.destroy();
      resolve(r);
    };
    s.setTimeout(timeoutMs, () => done('timeout'));
    s.once('connect', () => done('connected'));
    s.once('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNREFUSED' ? 'refused' : (e.code ?? 'error')));
  });
}

/**
 * The same probes, one after another, from inside a node's namespace: bash's /dev/tcp under
 * `timeout` (a shell starts in milliseconds; a node process there takes seconds on a busy machine).
 */
function probeFrom(lab: NetLab, node: string, targets: [string, number][]): string[] {
  const script = targets
    .map(([host, port]) => `if timeout 1.5 bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/tmp/netns-probe-$$; then echo connected; elif [ $? = 124 ]; then echo timeout; elif grep -q refused /tmp/netns-probe-$$; then echo refused; else echo error; fi`)
    .join('; ');
  const r = lab.exec(node, ['bash', '-c', `${script}; rm -f /tmp/netns-probe-$$`], 15_000);
  return r.stdout.trim().split('\n');
}

describeIfNetns(`network namespaces for partition tests${reason}`, () => {
  it('cuts and heals a link between two namespaces, then removes everything', async () => {
    const lab = NetLab.create();
    let server: ChildProcess | undefined;
    try {
      const a = lab.addNode('a');
      const b = lab.addNode('b');
      expect(a.address).not.toBe(b.address);
      // A TCP server in b, on b's address only.
      server = lab.spawn('b', [process.execPath, '-e', `require('net').createServer((s)=>s.end()).listen(7070,'${b.address}',()=>console.log('listening'))`]);
      await new Promise<void>((resolve, reject) => {
        server?.stdout?.on('data', (c: Buffer) => c.toString().includes('listening') && resolve());
        server?.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });

      expect(await tcpProbe(b.address, 7070)).toBe('connected');
      // Nothing listens on 7071: refused (the link itself carries packets both ways).
      expect(probeFrom(lab, 'a', [[b.address, 7070], [b.address, 7071]])).toEqual(['connected', 'refused']);

      lab.cut('b');
      // Dropped silently, as in a real partition: connects time out, neither refused nor unreachable.
      expect(await tcpProbe(b.address, 7070)).toBe('timeout');
      // From a too, while a's own link is intact (this process's address answers: refused).
      expect(probeFrom(lab, 'a', [[b.address, 7070], [lab.hostAddress, 9]])).toEqual(['timeout', 'refused']);

      lab.heal('b');
      expect(await tcpProbe(b.address, 7070, 5000)).toBe('connected');
      expect(probeFrom(lab, 'a', [[b.address, 7070]])).toEqual(['connected']);
    } finally {
      lab.destroy();
    }
    const { namespaces, hostLinks } = lab.names();
    const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
    for (const ns of namespaces) expect(listed).not.toContain(ns);
    for (const link of hostLinks) expect(spawnSync('ip', ['link', 'show', link]).status).not.toBe(0);
    // The server in b was stopped with its namespace.
    await new Promise((r) => (server && server.exitCode === null && server.signalCode === null ? server.once('exit', r) : r(null)));
    expect(server?.exitCode !== null || server.signalCode !== null).toBe(true);
  }, 60_000);
});
