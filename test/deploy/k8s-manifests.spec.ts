/**
 * The Kubernetes objects in infra/k8s (issue #27) render with kustomize (kubectl kustomize,
 * offline) and validate against the Kubernetes 1.36 API schemas (kubernetes-models), plus the
 * checks a cluster or this deployment needs beyond them (scripts/validate-k8s.mjs). The control
 * feeds the same validator a Deployment with a string containerPort and a selector its pods do
 * not carry, which it must refuse. Needs kubectl on PATH (every machine of this project has it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const root = path.resolve(__dirname, '..', '..');
const validator = path.join(root, 'scripts', 'validate-k8s.mjs');

interface Result { objects: string[]; problems: string[] }
interface Container { name: string; image: string; env?: { name: string; value?: string }[]; resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } }
interface K8sObject { kind: string; metadata: { name: string }; spec?: { template?: { spec?: { containers: Container[]; initContainers?: unknown[] } } } }

function validate(args: string[]): { status: number | null; out: { kubernetes: string; results: Record<string, Result> } | null; stderr: string } {
  const r = spawnSync(process.execPath, [validator, '--json', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout ? (JSON.parse(r.stdout) as { kubernetes: string; results: Record<string, Result> }) : null, stderr: r.stderr };
}

function render(overlay: string): K8sObject[] {
  const r = spawnSync('kubectl', ['kustomize', path.join(root, 'infra', 'k8s', 'overlays', overlay)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl kustomize failed: ${r.error?.message ?? r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as K8sObject);
}

const worker = (objects: K8sObject[]): Container => {
  const c = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'podium-worker')?.spec?.template?.spec?.containers[0];
  if (!c) throw new Error('no podium-worker Deployment');
  return c;
};

describe('Kubernetes objects (infra/k8s)', () => {
  it('every overlay validates against the Kubernetes 1.36 schemas and the cross-checks', () => {
    const r = validate([]);
    expect(r.stderr).toBe('');
    expect(r.out?.kubernetes).toBe('1.36');
    const expected = ['Service/podium-api', 'PersistentVolumeClaim/podium-models', 'Deployment/podium-api', 'Deployment/podium-worker', 'Job/podium-migrate'].sort();
    expect(Object.fromEntries(Object.entries(r.out?.results ?? {}).map(([k, v]) => [k, { objects: [...v.objects].sort(), problems: v.problems }]))).toEqual({
      'overlays/cpu': { objects: expected, problems: [] },
      'overlays/gpu': { objects: expected, problems: [] },
      'secret.template.yaml': { objects: ['Secret/podium-db'], problems: [] },
    });
    expect(r.status).toBe(0);
  });

  it('runs migrations as one Job, not in api replicas', () => {
    const objects = render('cpu');
    const api = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'podium-api');
    expect(api?.spec?.template?.spec?.initContainers).toBeUndefined();
    const job = objects.find((o) => o.kind === 'Job');
    expect(job?.spec?.template?.spec?.containers[0]).toMatchObject({ image: 'podium-api:latest' });
  });

  it('puts GPU workers on the CUDA image with a GPU each and PODIUM_NLI_PROVIDER=cuda; CPU workers on cpu', () => {
    const gpu = worker(render('gpu'));
    expect(gpu.image).toBe('podium-worker:cuda');
    expect(gpu.resources?.limits?.['nvidia.com/gpu']).toBe(1);
    expect(gpu.env?.find((e) => e.name === 'PODIUM_NLI_PROVIDER')?.value).toBe('cuda');
    const cpu = worker(render('cpu'));
    expect(cpu.image).toBe('podium-worker:latest');
    expect(cpu.resources?.limits?.['nvidia.com/gpu']).toBeUndefined();
    expect(cpu.env?.find((e) => e.name === 'PODIUM_NLI_PROVIDER')?.value).toBe('cpu');
  });

  it('control: refuses a Deployment with a string containerPort and a selector its pods lack', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-k8s-'));
    try {
      const file = path.join(dir, 'bad.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata: { name: bad }',
          'spec:',
          '  selector: { matchLabels: { app: a } }',
          '  template:',
          '    metadata: { labels: { app: b } }',
          '    spec:',
          '      securityContext: { runAsNonRoot: true }',
          '      containers:',
          '        - name: c',
          '          image: x',
          '          ports: [{ containerPort: "3000" }]',
          '          readinessProbe: { httpGet: { path: /, port: 3000 } }',
          '          livenessProbe: { httpGet: { path: /, port: 3000 } }',
          '          resources: { requests: { cpu: 1, memory: 1Gi }, limits: { memory: 1Gi } }',
        ].join('\n'),
      );
      const r = validate([file]);
      expect(r.status).toBe(1);
      expect(r.out?.results[file]?.problems).toEqual([
        `${file}: Deployment/bad: data/spec/template/spec/containers/0/ports/0/containerPort must be integer`,
        `${file}: Deployment/bad: selector app=a does not match the pod labels (the API server refuses it)`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
