/**
 * The worker's health endpoint, for Kubernetes probes and operators: a small HTTP server on
 * PODIUM_WORKER_HEALTH_PORT (none when unset).
 *   GET /healthz  liveness: 200 while the process answers.
 *   GET /readyz   readiness: 200 once the worker takes jobs from the queue, 503 while it does not
 *                 or while it runs degraded (CUDA asked for, NLI running on CPU); the JSON body
 *                 says why either way.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import type { ExecutionProvider } from '@podium/nli';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WORKER_CONFIG } from '../tokens';

export interface WorkerHealthReport {
  status: 'ok' | 'starting' | 'degraded';
  worker: string;
  nli: {
    /** PODIUM_NLI_PROVIDER. */
    requested: ExecutionProvider;
    /** The provider of the last NLI model loaded; null until one is. */
    used: ExecutionProvider | null;
    model: string | null;
  };
  problems: string[];
}

/** What the worker knows about itself; the health server reports it. */
export class WorkerHealth {
  private readonly log = new Logger('health');
  private ready = false;
  private nliUsed: ExecutionProvider | null = null;
  private nliModel: string | null = null;

  constructor(
    private readonly worker: string,
    private readonly requested: ExecutionProvider,
  ) {}

  /** The worker takes jobs (the queue started, the processors subscribed). */
  markReady(): void {
    this.ready = true;
  }

  /**
   * An NLI model was loaded on `used`. CUDA asked for and CPU used is a misconfigured GPU worker
   * (no CUDA provider in the image, no GPU in the pod, driver or cuDNN mismatch): logged at error
   * level and reported as degraded, while the worker keeps scoring on CPU (every NLI signature
   * records the provider, so no score passes for a GPU one).
   */
  recordNliProvider(model: string, used: ExecutionProvider, reason?: string): void {
    this.nliUsed = used;
    this.nliModel = model;
    if (this.requested === 'cuda' && used !== 'cuda') {
      this.log.error({
        msg: `PODIUM_NLI_PROVIDER=cuda but NLI model '${model}' runs on ${used}${reason ? ` (${reason})` : ''}: this worker scores on CPU; check the image (Dockerfile.worker --target cuda), the GPU request and the driver`,
        event: 'nli-provider-fallback',
      });
    }
  }

  report(): WorkerHealthReport {
    const problems: string[] = [];
    if (this.requested === 'cuda' && this.nliUsed !== null && this.nliUsed !== 'cuda') {
      problems.push(`PODIUM_NLI_PROVIDER=cuda but NLI runs on ${this.nliUsed}`);
    }
    if (!this.ready) problems.push('not taking jobs yet');
    return {
      status: !this.ready ? 'starting' : problems.length > 0 ? 'degraded' : 'ok',
      worker: this.worker,
      nli: { requested: this.requested, used: this.nliUsed, model: this.nliModel },
      problems,
    };
  }
}

export const WORKER_HEALTH = Symbol('WORKER_HEALTH');

/** Serves WorkerHealth on PODIUM_WORKER_HEALTH_PORT once the application has started. */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(WORKER_HEALTH) private readonly health: WorkerHealth,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Every provider has been created and every module initialised: the processors subscribed.
    this.health.markReady();
    const port = this.config.PODIUM_WORKER_HEALTH_PORT;
    if (port === undefined) return;
    this.server = await startHealthServer(this.health, port, this.config.PODIUM_WORKER_HEALTH_HOST);
    const address = this.server.address() as AddressInfo;
    new Logger('health').log(`health endpoint on http://${address.address}:${address.port}/readyz`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}

/** An HTTP server answering /healthz and /readyz from `health`; port 0 picks a free port. */
export function startHealthServer(health: WorkerHealth, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'alive' }));
      return;
    }
    if (path === '/readyz' || path === '/health') {
      const report = health.report();
      res.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(report));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found: GET /healthz or /readyz' }));
  });
  // Probes only: no slow client holds a socket.
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
