// Runs the embedded PostgreSQL for `npm run up` in a process group of its own, so that a
// terminal Ctrl-C (sent to the whole foreground group) stops the api and the workers first
// while the database stays up; the parent stops it last with SIGTERM, or by closing stdin
// (which also happens when the parent dies).
import { startPostgres } from './postgres.mjs';

const { root, name, persistent, port, settings } = JSON.parse(process.argv[2]);
const db = await startPostgres({ root, name, persistent, port, settings, log: (m) => process.stderr.write(`[podium] ${m}\n`) });
process.stdout.write(JSON.stringify({ url: db.url }) + '\n');
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await db.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => undefined); // only the parent decides when the database stops
process.stdin.on('end', () => void stop());
process.stdin.resume();
