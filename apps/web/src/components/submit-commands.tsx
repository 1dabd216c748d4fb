/** The exact commands to fetch the test input and submit from a shell, with the ids filled in. */
export function submitCommands(o: { origin: string; phaseId: string; teamId: string; systemName: string }) {
  const system = o.systemName.trim() || 'my-system';
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return {
    // The standalone command this server offers: nothing to install but Node.js (≥ 20).
    download: `curl -fsSLO ${o.origin}/api/cli/podium.cjs`,
    testInput: `node podium.cjs test-input --url ${o.origin} --phase ${o.phaseId} --format tsv --out test-input.tsv`,
    submit: `node podium.cjs submit --url ${o.origin} --phase ${o.phaseId} --token $PODIUM_TOKEN --system ${q(system)} outputs.txt`,
    curl: `curl -H "Authorization: Bearer $PODIUM_TOKEN" -F teamId=${o.teamId} -F systemName=${q(system)} -F file=@outputs.txt ${o.origin}/api/phases/${o.phaseId}/submissions`,
  };
}

export function SubmitCommands({ phaseId, teamId, systemName }: { phaseId: string; teamId: string; systemName: string }) {
  const origin = window.location.origin;
  const c = submitCommands({ origin, phaseId, teamId, systemName });
  const base = `/api/phases/${encodeURIComponent(phaseId)}/test-input`;
  return (
    <section aria-labelledby="cli-heading" data-testid="submit-commands">
      <h2 id="cli-heading">Test input and submitting from a shell</h2>
      <p>
        Phase id <code data-testid="phase-id">{phaseId}</code>. Test input (instance ids and sources, never references):{' '}
        <a href={`${base}.tsv`} data-testid="test-input-tsv">
          TSV
        </a>{' '}
        · <a href={`${base}.jsonl`}>JSONL</a> · <a href={`${base}.txt`}>plain lines</a>. Answer with one output per line in the same order, or JSONL{' '}
        <code>{'{"id", "output"}'}</code>.
      </p>
      <p className="small muted">
        Create a token on your <a href="/team">team page</a> and set <code>PODIUM_TOKEN</code> to it. The <code>podium</code> command needs only Node.js 20 or newer:{' '}
        <a href="/api/cli/podium.cjs" download data-testid="cli-download">
          download podium.cjs
        </a>{' '}
        (or with the first line below) and run it with <code>node</code>; it shows the scoring progress until it is done.
      </p>
      <pre data-testid="cli-download-command">{c.download}</pre>
      <pre data-testid="cli-test-input">{c.testInput}</pre>
      <pre data-testid="cli-submit">{c.submit}</pre>
      <p className="small">The same upload with curl:</p>
      <pre data-testid="curl-submit">{c.curl}</pre>
      <p className="small">
        See the <a href="/api-docs">API page</a> for every endpoint.
      </p>
    </section>
  );
}
