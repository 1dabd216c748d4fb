// A Docker engine and base images for `npm run test:deploy` on a machine that may have neither:
// uses the engine DOCKER_HOST (or the default socket) names when it answers; otherwise, as root,
// installs Debian's docker.io and starts a private dockerd (vfs storage, no iptables, no bridge:
// containers use --network host) whose data root persists, so image layers are cached between
// runs. A base image the engine cannot pull (Docker Hub unreachable) is made from Debian packages
// (debootstrap --variant=minbase) plus this machine's Node.js, under the tag the Dockerfile names.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ENGINE_DIR = process.env.PODIUM_DOCKER_DIR ?? '/var/lib/podium-deploy-test';
const RUN_DIR = '/run/podium-deploy-test';
const SOCKET = `unix://${RUN_DIR}/docker.sock`;

function sh(cmd, args, { env = process.env, input, stdio = 'pipe' } = {}) {
  return spawnSync(cmd, args, { env, input, stdio, encoding: 'utf8', maxBuffer: 64 << 20 });
}

/**
 * The docker client to drive the engine with, for BuildKit builds (RUN --mount): one with the
 * buildx plugin, or a client older than 23 (its `DOCKER_BUILDKIT=1` builds without buildx).
 */
function findClient() {
  const candidates = [...new Set(['docker', '/usr/bin/docker'])];
  for (const c of candidates) {
    if (sh(c, ['buildx', 'version']).status === 0) return c;
  }
  for (const c of candidates) {
    const v = sh(c, ['version', '--format', '{{.Client.Version}}']).stdout?.trim() ?? '';
    const major = Number(v.split('.')[0]);
    if (major > 0 && major < 23) return c;
  }
  return null;
}

export class Docker {
  /** @param {{ client: string, host: string | undefined, log: (s: string) => void }} o */
  constructor({ client, host, log }) {
    this.client = client;
    this.host = host;
    this.log = log;
    this.engine = null; // the dockerd this process started, if any
  }

  env(extra = {}) {
    return { ...process.env, ...(this.host ? { DOCKER_HOST: this.host } : {}), DOCKER_BUILDKIT: '1', ...extra };
  }

  /** Runs docker with args; returns stdout, throws with stderr when it fails. */
  run(args, { input, inherit = false } = {}) {
    const r = sh(this.client, args, { env: this.env(), input, stdio: inherit ? ['pipe', 'inherit', 'inherit'] : 'pipe' });
    if (r.status !== 0) throw new Error(`docker ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n${r.stderr ?? ''}`);
    return (r.stdout ?? '').trim();
  }

  ok(args) {
    return sh(this.client, args, { env: this.env() }).status === 0;
  }

  /** Like run, but asynchronous (builds take minutes); output goes to `logFile`. */
  runAsync(args, logFile) {
    return new Promise((resolve, reject) => {
      const fd = openSync(logFile, 'a');
      const child = spawn(this.client, args, { env: this.env(), stdio: ['ignore', fd, fd] });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`docker ${args.slice(0, 6).join(' ')} … failed (exit ${code}); see ${logFile}`))));
    });
  }

  /** Stops the engine if this process started it (its data root, the layer cache, stays). */
  async stopEngine() {
    if (!this.engine) return;
    const child = this.engine;
    this.engine = null;
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      const t = setTimeout(() => (child.kill('SIGKILL'), resolve()), 30000);
      child.on('exit', () => (clearTimeout(t), resolve()));
    });
    this.log('stopped the Docker engine it started');
  }
}

function answers(client, host) {
  return sh(client, ['info', '--format', '{{.ServerVersion}}'], { env: { ...process.env, ...(host ? { DOCKER_HOST: host } : {}) } }).status === 0;
}

function aptInstall(packages, log) {
  log(`installing ${packages.join(', ')} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  sh('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
  const r = sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`apt-get install ${packages.join(' ')} failed`);
}

/** An engine that answers: the caller's, this test's running one, or a new one (root only). */
export async function ensureEngine(log) {
  const isRoot = process.getuid?.() === 0;
  if (!existsSync('/usr/sbin/dockerd') && !sh('sh', ['-c', 'command -v dockerd']).stdout?.trim()) {
    if (!isRoot) throw new Error('no Docker engine here, and installing one (apt-get install docker.io) needs root');
    aptInstall(['docker.io'], log);
  }
  const client = findClient();
  if (!client) throw new Error('no docker client that builds with BuildKit (install the buildx plugin, or Debian docker.io)');
  for (const host of [process.env.DOCKER_HOST, undefined, SOCKET]) {
    if (host !== undefined || !process.env.DOCKER_HOST) {
      if (answers(client, host)) {
        log(`using the Docker engine at ${host ?? 'the default socket'}`);
        return new Docker({ client, host, log });
      }
    }
  }
  if (!isRoot) throw new Error('no Docker engine answers, and starting one needs root');
  mkdirSync(path.join(ENGINE_DIR, 'data'), { recursive: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const logFile = path.join(ENGINE_DIR, 'dockerd.log');
  const fd = openSync(logFile, 'a');
  log(`starting a Docker engine (vfs, data root ${ENGINE_DIR}/data, log ${logFile})…`);
  const engine = spawn(
    'dockerd',
    ['--storage-driver=vfs', '--iptables=false', '--ip-masq=false', '--bridge=none', '--data-root', path.join(ENGINE_DIR, 'data'), '--exec-root', path.join(RUN_DIR, 'exec'), '--pidfile', path.join(RUN_DIR, 'docker.pid'), '-H', SOCKET],
    { stdio: ['ignore', fd, fd] },
  );
  const docker = new Docker({ client, host: SOCKET, log });
  docker.engine = engine;
  let exited = null;
  engine.on('exit', (code) => (exited = code));
  for (let i = 0; i < 120; i++) {
    if (exited !== null) throw new Error(`dockerd exited (code ${exited}); see ${logFile}`);
    if (answers(client, SOCKET)) return docker;
    await new Promise((r) => setTimeout(r, 500));
  }
  await docker.stopEngine();
  throw new Error(`dockerd did not answer within 60 s; see ${logFile}`);
}

/**
 * The images a build of `target` (default: the last stage) starts from: the FROM images of the
 * stages it reaches through FROM <stage> and COPY --from=<stage>, ARG defaults substituted.
 */
export function baseImagesOf(dockerfile, target) {
  const text = readFileSync(dockerfile, 'utf8');
  const args = new Map([...text.matchAll(/^ARG\s+(\w+)=(\S+)/gm)].map((m) => [m[1], m[2]]));
  const stages = [];
  for (const line of text.split('\n')) {
    const from = line.match(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i);
    if (from) stages.push({ image: from[1].replace(/\$\{(\w+)\}/g, (_, a) => args.get(a) ?? ''), name: from[2]?.toLowerCase(), uses: [] });
    const copy = line.match(/--from=(\S+)/);
    if (copy && stages.length) stages[stages.length - 1].uses.push(copy[1].toLowerCase());
  }
  const byName = new Map(stages.filter((s) => s.name).map((s) => [s.name, s]));
  const images = new Set();
  const seen = new Set();
  const visit = (stage) => {
    if (seen.has(stage)) return;
    seen.add(stage);
    const parent = byName.get(stage.image.toLowerCase());
    if (parent) visit(parent);
    else images.add(stage.image);
    for (const u of stage.uses) {
      const s = byName.get(u);
      if (s) visit(s);
      else images.add(u);
    }
  };
  const start = target ? byName.get(target.toLowerCase()) : stages[stages.length - 1];
  if (!start) throw new Error(`${dockerfile} has no stage ${target}`);
  visit(start);
  return [...images];
}

/** The Debian mirror apt uses here (deb822 or one-line sources), else deb.debian.org. */
function debianMirror() {
  if (process.env.PODIUM_DEBIAN_MIRROR) return process.env.PODIUM_DEBIAN_MIRROR;
  for (const f of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(f)) continue;
    const text = readFileSync(f, 'utf8');
    const m = text.match(/^URIs:\s*(\S+\/debian)\s*$/m) ?? text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+bookworm\b/m);
    if (m) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

/**
 * Makes `tag` (node:20-bookworm-slim's layout: Node.js and npm in /usr/local, a `node` user with
 * uid 1000) from Debian bookworm's minbase packages and this machine's Node.js 20.
 */
function makeNodeBase(docker, tag, log) {
  if (!/^node:20-bookworm/.test(tag)) throw new Error(`cannot make ${tag} here (only node:20-bookworm*)`);
  if (!process.version.startsWith('v20.')) throw new Error(`making ${tag} needs Node.js 20 here (this is ${process.version})`);
  if (!existsSync('/usr/sbin/debootstrap')) aptInstall(['debootstrap'], log);
  const work = mkdtempSync(path.join(os.tmpdir(), 'podium-rootfs-'));
  const rootfs = path.join(work, 'rootfs');
  try {
    const mirror = debianMirror();
    log(`making ${tag}: debootstrap --variant=minbase bookworm from ${mirror}…`);
    const r = sh('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror]);
    if (r.status !== 0) throw new Error(`debootstrap failed:\n${(r.stdout ?? '').slice(-2000)}${r.stderr ?? ''}`);
    // Node.js and npm where the official image has them.
    const npmDir = path.resolve(path.dirname(sh('sh', ['-c', 'readlink -f "$(command -v npm)"']).stdout.trim()), '..');
    cpSync(process.execPath, path.join(rootfs, 'usr/local/bin/node'));
    cpSync(npmDir, path.join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx'));
    appendFileSync(path.join(rootfs, 'etc/group'), 'node:x:1000:\n');
    appendFileSync(path.join(rootfs, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/sh\n');
    mkdirSync(path.join(rootfs, 'home/node'), { recursive: true });
    sh('chown', ['1000:1000', path.join(rootfs, 'home/node')]);
    for (const d of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      rmSync(path.join(rootfs, d), { recursive: true, force: true });
      mkdirSync(path.join(rootfs, d, 'partial'), { recursive: true });
    }
    // tar streams into `docker import` (the root file system is ~200 MB: not through a buffer).
    const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `ENV NODE_VERSION=${process.version.slice(1)}`, 'CMD ["node"]'];
    const importCmd = [docker.client, 'import', ...changes.flatMap((c) => ['--change', c]), '--message', `debootstrap minbase bookworm + Node.js ${process.version}`, '-', tag];
    const quote = (a) => `'${a.replace(/'/g, `'\\''`)}'`;
    const r2 = sh('sh', ['-c', `tar -C ${quote(rootfs)} --numeric-owner -cf - . | ${importCmd.map(quote).join(' ')}`], { env: docker.env() });
    if (r2.status !== 0) throw new Error(`docker import failed: ${r2.stderr}`);
    log(`made ${tag} (${docker.run(['image', 'inspect', '--format', '{{.Size}}', tag])} bytes)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every base image of the Dockerfiles: present, pulled, or (node:20-bookworm*) made here. */
export function ensureBaseImages(docker, dockerfiles, log) {
  for (const image of new Set(dockerfiles.flatMap((f) => baseImagesOf(f)))) {
    if (docker.ok(['image', 'inspect', image])) continue;
    log(`pulling ${image}…`);
    if (sh('timeout', ['60', docker.client, 'pull', image], { env: docker.env() }).status === 0) continue;
    log(`cannot pull ${image}; making it from Debian packages`);
    makeNodeBase(docker, image, log);
  }
}
