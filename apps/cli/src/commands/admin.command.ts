import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags } from '../flags';

const USAGE = `usage: podium admin requeue --url URL [--token TOKEN] (--submission ID | --stuck)

Talks to a running Podium API (the one command that does). Organisers only.
  requeue --submission ID   queue one submission for scoring again
  requeue --stuck           queue every submission stuck in SCORING (no live worker lease)
  --url URL                 the API, e.g. http://127.0.0.1:3000
  --token TOKEN             an organiser's API token (default: $PODIUM_TOKEN)
Prints {"requeued": [ids]}.`;

type Fetch = typeof fetch;

/** `podium admin requeue`: the requeueSubmissions mutation through the API, with a token. */
export function adminCommandWith(fetchImpl: Fetch, env: NodeJS.ProcessEnv = process.env): CliCommand {
  return {
    name: 'admin',
    summary: 'organiser operations against a running API (requeue submissions)',
    usage: USAGE,
    async run(argv) {
      const [action, ...rest] = argv;
      if (action !== 'requeue') throw new CliError(`unknown admin action '${action ?? ''}' (expected: requeue)`);
      const flags = parseFlags(rest, { url: { type: 'string' }, token: { type: 'string' }, submission: { type: 'string' }, stuck: { type: 'boolean' } });
      const url = flags.url;
      const token = flags.token ?? env['PODIUM_TOKEN'];
      if (!url) throw new CliError('--url is required');
      if (!token) throw new CliError('--token (or PODIUM_TOKEN) is required');
      if (!!flags.submission === !!flags.stuck) throw new CliError('give exactly one of --submission ID and --stuck');
      let res: Response;
      try {
        res = await fetchImpl(`${url.replace(/\/+$/, '')}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: 'mutation($id: ID, $stuck: Boolean) { requeueSubmissions(submissionId: $id, stuck: $stuck) }',
            variables: flags.submission ? { id: flags.submission } : { stuck: true },
          }),
        });
      } catch (e) {
        throw new CliError(`cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`);
      }
      const body = (await res.json().catch(() => null)) as { data?: { requeueSubmissions?: string[] }; errors?: { message: string }[] } | null;
      if (body?.errors?.length) throw new CliError(body.errors.map((e) => e.message).join('; '));
      if (!res.ok || !body?.data?.requeueSubmissions) throw new CliError(`the API answered ${res.status}`);
      return { requeued: body.data.requeueSubmissions };
    },
  };
}

export const adminCommand = adminCommandWith((...args) => fetch(...args));
