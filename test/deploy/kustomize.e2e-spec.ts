import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '@podwarden/policies';
import { ROOT } from '../support/app-process';
import { freePort } from '../support/free-port';
import { resetSim } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { DEPLOY, readYaml, requireTool, run, runOrThrow, yamlDocuments } from './deploy-files';

type App = 'gateway' | 'waker' | 'idle-monitor' | 'inference-proxy';
const APPS: readonly App[] = ['gateway', 'waker', 'idle-monitor', 'inference-proxy'];
/** The variable each app listens on (docs/contract.md): PORT, PROXY_PORT, a worker's HEALTH_PORT. */
const PORT_VARIABLE: Record<App, string> = {
  gateway: 'PORT',
  waker: 'HEALTH_PORT',
  'idle-monitor': 'HEALTH_PORT',
  'inference-proxy': 'PROXY_PORT',
};
/** docs/configuration.md's app column. */
const COLUMN: Record<App, string> = {
  gateway: 'gw',
  waker: 'wk',
  'idle-monitor': 'im',
  'inference-proxy': 'px',
};
/** Measured peak RSS under load with the image's heap ceiling (docs/benchmarks.md, memory). */
const MEASURED_PEAK_MIB = 139;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: unknown };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  command: string[];
  image: string;
  ports: { name: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: {
    template?: { spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean } } };
    selector?: { matchLabels?: Record<string, string> } & Record<string, unknown>;
    ports?: { name: string; port: number; targetPort: string | number }[];
    scaleTargetRef?: { kind: string; name: string };
    endpoints?: { port: string; path: string }[];
  };
}

function render(dir: string): K8sObject[] {
  return yamlDocuments<K8sObject>(runOrThrow('kubectl', ['kustomize', join(DEPLOY, 'k8s', dir)]));
}

function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`memory quantity ${quantity} not in Mi/Gi`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

/** Variables that must be set for an app to do its job: docs/configuration.md's rows whose unset value disables it. */
function requiredVariables(): Map<string, Set<string>> {
  const required = new Map<string, Set<string>>();
  const add = (name: string, apps: string[]) =>
    required.set(name, new Set([...(required.get(name) ?? []), ...apps]));
  const table = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  for (const row of table.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|.*\| ([^|]+) \|$/gm)) {
    const [, name, fallback, apps] = row;
    if (!/^(unset|blank) ⇒ /.test(fallback.trim()) || /⇒ (off|none)\s*$/.test(fallback.trim())) continue;
    add(
      name,
      apps
        .split(',')
        .map((a) => a.trim().split(' ')[0])
        .filter((a) => a.length > 0),
    );
  }
  add('RIG_OPERATOR_TOKEN', ['gw']);
  add('HEALTH_PORT', ['wk', 'im']);
  add('QUEUE_PREFIX', ['all']);
  return required;
}

/** The container's environment as the kubelet would build it; secret references read `<secret:key>`. */
function environment(container: Container, objects: K8sObject[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef?.name);
    if (!map) throw new Error(`envFrom names a ConfigMap that is not rendered: ${JSON.stringify(from)}`);
    Object.assign(env, map.data);
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    env[variable.name] = ref ? `<secret:${ref.name}/${ref.key}>` : (variable.value ?? '');
  }
  return env;
}

describe.each([
  ['base', 'standalone'],
  ['overlays/sentinel', 'sentinel'],
])('kubectl kustomize deploy/k8s/%s', (dir, topology) => {
  let objects: K8sObject[];
  const deployment = (app: App): K8sObject => {
    const found = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `podwarden-${app}`);
    if (!found) throw new Error(`no Deployment podwarden-${app}`);
    return found;
  };
  const container = (app: App): Container => deployment(app).spec!.template!.spec.containers[0];

  beforeAll(() => {
    requireTool('kubectl', 'your package manager (kubectl kustomize renders deploy/k8s)');
    objects = render(dir);
  });

  it('renders a Deployment running each app, a Service, a PodDisruptionBudget; HPAs for the waker and the proxy', () => {
    for (const app of APPS) {
      expect(container(app).command).toEqual(['node', `dist/apps/${app}/main.js`]);
      const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === `podwarden-${app}`);
      expect(service?.spec?.selector).toEqual({ 'app.kubernetes.io/name': app });
      const portNames = container(app).ports.map((p) => p.name);
      for (const port of service!.spec!.ports!) expect(portNames).toContain(port.targetPort);
      const budget = objects.find(
        (o) => o.kind === 'PodDisruptionBudget' && o.metadata.name === `podwarden-${app}`,
      );
      expect(budget?.spec?.selector?.matchLabels).toEqual({ 'app.kubernetes.io/name': app });
    }
    const scaled = objects
      .filter((o) => o.kind === 'HorizontalPodAutoscaler')
      .map((o) => `${o.spec!.scaleTargetRef!.kind}/${o.spec!.scaleTargetRef!.name}`);
    expect(scaled.sort()).toEqual(['Deployment/podwarden-inference-proxy', 'Deployment/podwarden-waker']);
  });

  it('probes ask /health/live and /health/ready on the port the app listens on', () => {
    for (const app of APPS) {
      const c = container(app);
      const listening = Number(environment(c, objects)[PORT_VARIABLE[app]]);
      for (const [probe, path] of [
        [c.livenessProbe, '/health/live'],
        [c.readinessProbe, '/health/ready'],
      ] as const) {
        expect(probe?.httpGet?.path).toBe(path);
        const port = probe!.httpGet!.port;
        const number = typeof port === 'number' ? port : c.ports.find((p) => p.name === port)?.containerPort;
        expect({ app, path, port: number }).toEqual({ app, path, port: listening });
      }
    }
  });

  it('requests and limits fit the measured memory; non-root, read-only, no privilege escalation', () => {
    for (const app of APPS) {
      const c = container(app);
      const { requests, limits } = c.resources ?? {};
      expect(mebibytes(limits!.memory)).toBeGreaterThan(MEASURED_PEAK_MIB * 1.5);
      expect(mebibytes(requests!.memory)).toBeGreaterThan(MEASURED_PEAK_MIB);
      expect(mebibytes(requests!.memory)).toBeLessThanOrEqual(mebibytes(limits!.memory));
      expect(requests!.cpu).toBeDefined();
      expect(limits!.cpu).toBeDefined();
      expect(deployment(app).spec!.template!.spec.securityContext?.runAsNonRoot).toBe(true);
      expect(c.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
    }
  });

  it('sets every variable the configuration requires, and the apps parse it without a warning', () => {
    const required = requiredVariables();
    expect([...required.keys()]).toEqual(
      expect.arrayContaining([
        'RUNPOD_API_KEY',
        'RUNPOD_VOLUME_ID',
        'RUNPOD_TEMPLATE_ID',
        'RIG_INFERENCE_TOKEN',
      ]),
    );
    for (const app of APPS) {
      const env = environment(container(app), objects);
      for (const [name, apps] of required)
        if (apps.has('all') || apps.has(COLUMN[app]))
          expect({ app, name, set: Boolean(env[name]) }).toEqual({ app, name, set: true });
      const parsed = parseConfig(env, null);
      if (!parsed.ok) throw new Error(`${app}: ${parsed.error}`);
      expect({ app, warnings: parsed.warnings }).toEqual({ app, warnings: [] });
      expect(parsed.config.redis.topology.kind).toBe(topology);
    }
  });

  it('keeps no secret inline: no Secret object, every key and token by reference', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const secretLike = /KEY|TOKEN|PASSWORD|SECRET/;
    for (const map of objects.filter((o) => o.kind === 'ConfigMap')) {
      expect(Object.keys(map.data ?? {}).filter((k) => secretLike.test(k))).toEqual([]);
      expect(map.data?.REDIS_URL ?? '').not.toMatch(/\/\/[^/]*@/);
    }
    for (const app of APPS) {
      const inline = (container(app).env ?? []).filter(
        (v) => secretLike.test(v.name) && !v.valueFrom?.secretKeyRef,
      );
      expect(inline).toEqual([]);
      const refs = (container(app).env ?? []).filter((v) => v.valueFrom?.secretKeyRef);
      expect(refs.map((v) => v.valueFrom!.secretKeyRef!.name)).toEqual(refs.map(() => 'podwarden-secrets'));
    }
  });

  it('the ServiceMonitor scrapes every app as the job alerts.yml expects', () => {
    const monitor = objects.find((o) => o.kind === 'ServiceMonitor');
    const selector = monitor!.spec!.selector!.matchLabels!;
    const endpointPorts = monitor!.spec!.endpoints!.map((e) => e.port);
    const alerts = readFileSync(join(DEPLOY, 'prometheus', 'alerts.yml'), 'utf8');
    for (const app of APPS) {
      const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === `podwarden-${app}`)!;
      expect(service.metadata.labels).toMatchObject(selector);
      expect(service.spec!.ports!.some((p) => endpointPorts.includes(p.name))).toBe(true);
      expect(alerts).toContain(`job="${service.metadata.name}"`);
    }
  });
});

/** The probes' routes and ports on the built apps, and the image's HEALTHCHECK script against them. */
describe('probe routes on the running apps', () => {
  let stack: Stack;
  const ports: Partial<Record<App, number>> = {};

  beforeAll(async () => {
    stack = await Stack.start({ name: 'deploy-probes' });
    await resetSim(stack);
    ports.gateway = Number(new URL(stack.gatewayUrl).port);
    ports.waker = await freePort();
    ports['idle-monitor'] = await freePort();
    await stack.startWaker({ HEALTH_PORT: String(ports.waker) });
    await stack.startIdleMonitor({ HEALTH_PORT: String(ports['idle-monitor']) });
    ports['inference-proxy'] = Number(new URL(await stack.startProxy()).port);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(APPS)('%s answers 200 on the probed routes and /metrics', async (app) => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      const response = await fetch(`http://127.0.0.1:${ports[app]}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  it.each(APPS)(
    "the image's HEALTHCHECK script passes on a live %s and fails on a closed port",
    async (app) => {
      const script = join(ROOT, 'scripts', 'container-healthcheck.js');
      const env = { PATH: process.env.PATH ?? '', PODWARDEN_APP: app };
      const healthy = run('env', [
        ...Object.entries({ ...env, [PORT_VARIABLE[app]]: String(ports[app]) }).map(([k, v]) => `${k}=${v}`),
        process.execPath,
        script,
      ]);
      expect(healthy).toEqual({ status: 0, output: '' });
      const closed = await freePort();
      const down = run('env', [
        ...Object.entries({ ...env, [PORT_VARIABLE[app]]: String(closed) }).map(([k, v]) => `${k}=${v}`),
        process.execPath,
        script,
      ]);
      expect(down.status).toBe(1);
    },
  );
});

/** No Docker engine here: the Dockerfile is checked by reading it. */
describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds a slim runtime stage without dev dependencies, run as a non-root user', () => {
    expect(finalStage).toMatch(/^\nFROM node:\d+-[a-z]+-slim\n/);
    expect(dockerfile).toContain('npm prune --omit=dev');
    const user = /^USER (\S+)$/m.exec(finalStage)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', 'test-logs']));
  });

  it('has a HEALTHCHECK running a script the image copies in', () => {
    const check = /^HEALTHCHECK .*\\\n\s+CMD \["node", "([^"]+)"\]$/m.exec(finalStage);
    expect(check).not.toBeNull();
    expect(finalStage).toContain(`COPY ${check![1]} ./scripts/`);
    expect(readFileSync(join(ROOT, check![1]), 'utf8')).toContain('/health/live');
  });

  it('uses uid 1000, as the manifests run it', () => {
    const base = readYaml<{ resources: string[] }>(join(DEPLOY, 'k8s', 'base', 'kustomization.yaml'));
    expect(base.resources).toContain('gateway.yaml');
    expect(readFileSync(join(DEPLOY, 'k8s', 'base', 'gateway.yaml'), 'utf8')).toContain('runAsUser: 1000');
    expect(/^USER node$/m.test(finalStage)).toBe(true);
  });
});
