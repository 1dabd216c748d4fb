import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens once; rejects with the server's error (EADDRINUSE, EACCES). */
function listenOnce(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.removeListener('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.removeListener('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

const inUse = (e: unknown): boolean => e instanceof Error && (e as NodeJS.ErrnoException).code === 'EADDRINUSE';

/**
 * Listens on `port`; when another process holds it (EADDRINUSE: it bound the port after a caller
 * checked it was free), and `fallbacks` > 0, on the next `fallbacks` ports in turn, then on one
 * the system picks. Returns the port listened on; `onTaken` hears of each port found taken.
 * Other errors, and EADDRINUSE with no fallback, reject.
 */
export async function listenWithFallback(server: Server, port: number, host: string, fallbacks: number, onTaken: (port: number) => void = () => undefined): Promise<number> {
  const candidates = [port, ...Array.from({ length: port === 0 ? 0 : fallbacks }, (_, k) => port + k + 1).filter((p) => p <= 65535), ...(fallbacks > 0 ? [0] : [])];
  let last: unknown;
  for (const candidate of candidates) {
    try {
      return await listenOnce(server, candidate, host);
    } catch (e) {
      if (!inUse(e)) throw e;
      onTaken(candidate);
      last = e;
    }
  }
  throw last;
}
