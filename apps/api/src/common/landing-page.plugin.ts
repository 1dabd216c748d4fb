import type { ApolloServerPlugin } from '@apollo/server';

const DEFAULT_QUERY = `{
  tasks {
    slug
    title
    kind
    phases { id name closesAt scoresVisible }
  }
}`;

/**
 * A self-contained query console at GET /graphql: no CDN assets, so it works offline
 * (GraphiQL and Apollo Sandbox load their code from the internet).
 */
export function landingPageHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Podium GraphQL API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
 body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330}
 textarea,input{font:13px ui-monospace,monospace;width:100%;box-sizing:border-box;border:1px solid #b8c0cc;border-radius:4px;padding:.5rem}
 pre{background:#f4f6f9;border-radius:4px;padding:.75rem;overflow:auto;max-height:60vh;font-size:13px}
 .row{display:grid;grid-template-columns:1fr 1fr;gap:1rem} button{padding:.45rem 1.2rem;margin:.5rem 0;cursor:pointer}
 code{background:#f4f6f9;padding:0 .25rem}
</style></head><body>
<h1>Podium GraphQL API</h1>
<p>POST GraphQL to <code>/graphql</code> (JSON). REST: <code>POST /api/phases/:id/submissions</code> (multipart),
<code>GET /api/submissions/:id/scores.csv|.jsonl</code>, <code>GET /api/phases/:id/scores.csv|.jsonl</code>, <code>GET /api/health</code>.
Send <code>Authorization: Bearer &lt;token&gt;</code> to act as a user; reads are anonymous.</p>
<label>API token (optional) <input id="token" placeholder="pod_…" autocomplete="off"></label>
<div class="row">
 <div><h3>Query</h3><textarea id="query" rows="18">${DEFAULT_QUERY}</textarea>
 <h3>Variables (JSON)</h3><textarea id="vars" rows="4">{}</textarea><button id="run">Run ▶</button></div>
 <div><h3>Result</h3><pre id="out">Press Run.</pre></div>
</div>
<script>
document.getElementById('run').onclick = async function () {
  var out = document.getElementById('out');
  out.textContent = '…';
  var headers = { 'Content-Type': 'application/json' };
  var token = document.getElementById('token').value.trim();
  if (token) headers.Authorization = 'Bearer ' + token;
  try {
    var variables = JSON.parse(document.getElementById('vars').value || '{}');
    var res = await fetch(location.pathname, { method: 'POST', headers: headers,
      body: JSON.stringify({ query: document.getElementById('query').value, variables: variables }) });
    out.textContent = JSON.stringify(await res.json(), null, 2);
  } catch (e) { out.textContent = String(e); }
};
</script></body></html>`;
}

export function landingPagePlugin(): ApolloServerPlugin {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: landingPageHtml() };
        },
      };
    },
  };
}
