// `npm run k8s:validate`: renders every overlay of infra/k8s (kubectl kustomize, offline) and
// validates each object against the Kubernetes API schemas of kubernetes-models (generated from
// the Kubernetes 1.36 OpenAPI spec; types, required fields, enums, formats), then checks what a
// cluster checks beyond the schema or what this deployment relies on: selectors that match their
// pod labels, named probe ports that exist, the Secret and volume claim that pods name, probes and
// resource requests/limits on every long-running container, migrations as a Job.
// Usage: node scripts/validate-k8s.mjs [--json] [FILE.yaml…]   (files: validate those instead)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const KUBERNETES_SCHEMA_VERSION = '1.36';

/** `kubectl kustomize DIR` → the rendered YAML. */
function render(dir) {
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (r.error) throw new Error(`kubectl is needed to render ${dir} (kubectl kustomize): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${r.stderr}`);
  return r.stdout;
}

function parse(text, source) {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length > 0) throw new Error(`${source}: ${d.errors.map((e) => e.message).join('; ')}`);
    return d.toJS();
  }).filter((o) => o !== null && o !== undefined);
}

/** The kubernetes-models class of an object: `apps/v1` + `Deployment` → kubernetes-models/apps/v1/Deployment. */
async function modelOf(apiVersion, kind) {
  const group = apiVersion.includes('/') ? apiVersion : `v1`;
  try {
    const mod = await import(`kubernetes-models/${group === 'v1' ? 'v1' : group}/${kind}`);
    return mod[kind];
  } catch {
    return null;
  }
}

const podSpecOf = (o) => (o.kind === 'Job' || o.kind === 'Deployment' ? o.spec?.template?.spec : undefined);

/** Checks beyond the schema; returns problems as strings. */
function crossChecks(objects, source) {
  const problems = [];
  const named = (kind, name) => objects.some((o) => o.kind === kind && o.metadata?.name === name);
  for (const o of objects) {
    const id = `${source}: ${o.kind}/${o.metadata?.name}`;
    const spec = podSpecOf(o);
    if (o.kind === 'Deployment') {
      const selector = o.spec?.selector?.matchLabels ?? {};
      const labels = o.spec?.template?.metadata?.labels ?? {};
      for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) problems.push(`${id}: selector ${k}=${v} does not match the pod labels (the API server refuses it)`);
      if ((spec?.initContainers ?? []).length > 0) problems.push(`${id}: init containers; migrations belong in the Job podium-migrate`);
    }
    if (!spec) continue;
    for (const c of spec.containers ?? []) {
      const ports = new Set((c.ports ?? []).map((p) => p.name).filter(Boolean));
      for (const probe of ['readinessProbe', 'livenessProbe']) {
        const p = c[probe];
        if (o.kind === 'Deployment' && !p) problems.push(`${id}: container ${c.name} has no ${probe}`);
        const port = p?.httpGet?.port;
        if (typeof port === 'string' && !ports.has(port)) problems.push(`${id}: ${probe} names port ${port}, which container ${c.name} does not declare`);
      }
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory || !c.resources?.limits?.memory) problems.push(`${id}: container ${c.name} needs cpu and memory requests and a memory limit`);
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref && !named('Secret', ref.name) && ref.name !== 'podium-db') problems.push(`${id}: env ${e.name} reads Secret ${ref.name}, which nothing defines`);
      }
    }
    for (const v of spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim && !named('PersistentVolumeClaim', claim)) problems.push(`${id}: volume ${v.name} claims ${claim}, which is not defined`);
    }
    if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${id}: pods must run as non-root (securityContext.runAsNonRoot)`);
  }
  return problems;
}

/** Validates the objects of one source; returns { objects: [kind/name], problems: [] }. */
export async function validateObjects(objects, source, { crossCheck = true } = {}) {
  const problems = [];
  for (const o of objects) {
    const id = `${source}: ${o.kind}/${o.metadata?.name}`;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') {
      problems.push(`${id}: no apiVersion/kind`);
      continue;
    }
    const Model = await modelOf(o.apiVersion, o.kind);
    if (!Model) {
      problems.push(`${id}: ${o.apiVersion} ${o.kind} is not a Kubernetes ${KUBERNETES_SCHEMA_VERSION} API object`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (e) {
      problems.push(`${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (crossCheck) problems.push(...crossChecks(objects, source));
  return { objects: objects.map((o) => `${o.kind}/${o.metadata?.name}`), problems };
}

/** Every overlay of infra/k8s, rendered, plus the Secret template. */
export async function validateRepository() {
  const results = {};
  const overlays = path.join(root, 'infra', 'k8s', 'overlays');
  for (const name of readdirSync(overlays).sort()) {
    const dir = path.join(overlays, name);
    if (!existsSync(path.join(dir, 'kustomization.yaml'))) continue;
    const source = `overlays/${name}`;
    results[source] = await validateObjects(parse(render(dir), source), source);
  }
  const template = path.join(root, 'infra', 'k8s', 'secret.template.yaml');
  results['secret.template.yaml'] = await validateObjects(parse(readFileSync(template, 'utf8'), 'secret.template.yaml'), 'secret.template.yaml');
  return results;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const files = args.filter((a) => !a.startsWith('--'));
  const results = {};
  try {
    if (files.length > 0) {
      for (const f of files) results[f] = await validateObjects(parse(readFileSync(f, 'utf8'), f), f);
    } else {
      Object.assign(results, await validateRepository());
    }
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const problems = Object.values(results).flatMap((r) => r.problems);
  if (json) process.stdout.write(JSON.stringify({ kubernetes: KUBERNETES_SCHEMA_VERSION, results }, null, 2) + '\n');
  else {
    for (const [source, r] of Object.entries(results)) process.stdout.write(`${source}: ${r.objects.length} objects (${r.objects.join(', ')})\n`);
    for (const p of problems) process.stdout.write(`  ✗ ${p}\n`);
    process.stdout.write(problems.length === 0 ? `valid against Kubernetes ${KUBERNETES_SCHEMA_VERSION} schemas (kubernetes-models)\n` : `${problems.length} problem(s)\n`);
  }
  process.exit(problems.length === 0 ? 0 : 1);
}
