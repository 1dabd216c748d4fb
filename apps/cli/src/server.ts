import { CliError } from './cli-error';

/** Talking to a Podium server: the REST endpoints and GraphQL, with an optional API token. */
export interface ServerOptions {
  url: string;
  token?: string;
  fetch?: typeof fetch;
}

export function serverUrl(raw: string | undefined): string {
  if (!raw) throw new CliError('--url is required (the Podium server, e.g. http://localhost:3000)');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CliError(`--url '${raw}' is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new CliError(`--url must be http(s), got '${u.protocol}'`);
  return u.toString().replace(/\/+$/, '');
}

export function authHeaders(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The server's error message for a failed REST call ({ error } or { message }). */
export async function restError(res: Response): Promise<CliError> {
  const text = await res.text();
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: string; message?: string; line?: number; field?: string };
    message = body.error ?? body.message ?? message;
    if (body.line !== undefined) message += ` (line ${body.line})`;
  } catch {
    // not JSON: the text itself
  }
  return new CliError(`server answered ${res.status}: ${message}`);
}

export async function graphql<T>(opts: ServerOptions, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await (opts.fetch ?? fetch)(`${opts.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(opts.token) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new CliError(body.errors.map((e) => e.message).join('; '));
  return body.data as T;
}

/**
 * A phase's state in words as the server says it ("phase 'test': closed early on 2026-11-25 by
 * alice; results not yet published"), or null when the server does not say (older server, no phase).
 */
export async function phaseInWords(opts: ServerOptions, phaseId: string): Promise<string | null> {
  try {
    const { phase } = await graphql<{ phase: { name: string; stateDescription: string } | null }>(opts, `query($id: ID!) { phase(id: $id) { name stateDescription } }`, { id: phaseId });
    return phase ? `phase '${phase.name}': ${phase.stateDescription}` : null;
  } catch {
    return null;
  }
}
