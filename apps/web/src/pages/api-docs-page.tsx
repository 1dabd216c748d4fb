import { ColumnHeads } from '../components/column-heads';

const ENDPOINTS: { method: string; path: string; auth: string; what: string }[] = [
  { method: 'POST', path: '/graphql', auth: 'optional', what: 'GraphQL: tasks, phases, submissions, leaderboards, teams, tokens, organiser actions (schema below)' },
  { method: 'GET', path: '/api/phases/:id/test-input.tsv|jsonl|txt', auth: 'none', what: 'Test input: instance ids and sources in test-set order, never references' },
  { method: 'POST', path: '/api/phases/:id/submissions', auth: 'token', what: 'Multipart upload: file (plain lines in order, or JSONL {"id","output"}), teamId (or team), systemName, description, format' },
  { method: 'GET', path: '/api/submissions/:id/scores.csv|jsonl', auth: 'optional', what: "A submission's per-instance scores (its team always; others once public)" },
  { method: 'GET', path: '/api/phases/:id/scores.csv|jsonl', auth: 'optional', what: "Every scored submission's per-instance scores (once public; ?metric=combined adds the combined metric)" },
  { method: 'GET', path: '/api/phases/:id/leaderboard.json|csv', auth: 'optional', what: 'The leaderboard; ?metric=&test=&correction=&seed=&resamples=&submissions=all' },
  { method: 'GET', path: '/api/tasks/:slug/robustness.csv', auth: 'optional', what: "Robustness reports of a task's metrics" },
  { method: 'GET', path: '/api/health', auth: 'none', what: 'Health check (the database answers)' },
];

/** REST endpoints and a link to the GraphQL schema, for scripts and the `podium` command. */
export function ApiDocsPage() {
  return (
    <section>
      <h1>API</h1>
      <p>
        Authenticate scripts with <code>Authorization: Bearer &lt;token&gt;</code> (create tokens on your team page); the web app uses a session cookie. Errors come back as{' '}
        <code>{'{ "error", "code", "field"?, "line"? }'}</code> over REST and as <code>errors[].extensions.code</code> in GraphQL.
      </p>
      <table className="data-table" data-testid="api-endpoints">
        <ColumnHeads columns={['Method', 'Path', 'Token', 'What']} />
        <tbody>
          {ENDPOINTS.map((e) => (
            <tr key={`${e.method} ${e.path}`}>
              <td>{e.method}</td>
              <td>
                <code>{e.path}</code>
              </td>
              <td>{e.auth}</td>
              <td>{e.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>GraphQL</h2>
      <p>
        The endpoint is <code>/graphql</code>; open it in a browser for an offline console. The schema:{' '}
        <a href="/api/schema.graphql" data-testid="schema-link">
          schema.graphql
        </a>
        .
      </p>
      <h2>Command line</h2>
      <pre>{`curl -fsSLO ${window.location.origin}/api/cli/podium.cjs
node podium.cjs test-input --url ${window.location.origin} --phase PHASE_ID --format tsv --out test-input.tsv
node podium.cjs submit --url ${window.location.origin} --phase PHASE_ID --token $PODIUM_TOKEN --system my-system outputs.txt`}</pre>
    </section>
  );
}
