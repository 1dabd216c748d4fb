import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './processes';
import { defined } from '../../support/defined';

export interface OwnPostgres {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL of the caller's own, in its own process (scripts/lib/postgres-server.mjs)
 * on a fixed port: the restart fault test stops and starts it; bench:faults runs on it. Data in
 * .data/postgres-<name> (kept between starts when `persistent`). `settings` are extra server
 * settings (`-c key=value`); bench:platform turns on track_commit_timestamp. `netns`: the server
 * runs in that network namespace (test/support/netns.ts) and the URL names `host` (the
 * namespace's address, which `settings` must make it listen on and accept: listen_addresses,
 * hba_file).
 */
export async function startOwnPostgres(
  name: string,
  port: number,
  persistent: boolean,
  settings: Record<string, string> = {},
  place: { netns?: string; host?: string } = {},
): Promise<OwnPostgres> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The script would use a configured server instead of starting its own.
  delete env['DATABASE_URL'];
  delete env['TEST_DATABASE_URL'];
  const argv = [process.execPath, path.join(repoRoot, 'scripts/lib/postgres-server.mjs'), JSON.stringify({ root: repoRoot, name, persistent, port, settings })];
  const [command = '', ...args] = place.netns ? ['ip', 'netns', 'exec', place.netns, ...argv] : argv;
  const child = spawn(command, args, {
    env,
    // A process group of its own, as for `npm run up`: a terminal Ctrl-C stops the caller's apps,
    // then the caller stops the database; it also stops when the caller dies (stdin closes).
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    defined(child.stdout).on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const u = new URL((JSON.parse(buf.slice(0, nl)) as { url: string }).url);
      if (place.host) u.hostname = place.host;
      resolve(u.toString());
    });
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited with ${code}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
