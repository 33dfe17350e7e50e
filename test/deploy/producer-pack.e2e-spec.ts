import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/app-process';
import { resetSim, simPods, simWrites } from '../support/sim-admin';
import { Stack, VOLUME_ID } from '../support/stack';
import { REDIS_URL } from '../support/test-env';
import { run, runOrThrow } from './deploy-files';

const PACKAGE = join(ROOT, 'packages', 'producer');
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The other service: a plain Node script that knows only the installed package, bullmq and ioredis. */
const SERVICE_SCRIPT = `
const IORedis = require('ioredis');
const { wakePod, waitForWake } = require('@podwarden/producer');
(async () => {
  const connection = new IORedis(process.env.REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = process.env.QUEUE_PREFIX;
  const pod = { name: 'QWEN', volumeId: process.env.VOLUME_ID };
  const ids = await Promise.all(
    ['svc-a', 'svc-b', 'svc-c'].map((requestedBy) => wakePod({ connection, prefix, pod, requestedBy })),
  );
  const ending = await waitForWake(ids[0], { connection, prefix, timeoutMs: 90000 });
  let invalid = null;
  try {
    await wakePod({ connection, prefix, pod: { name: '  ', volumeId: process.env.VOLUME_ID } });
  } catch (error) {
    invalid = error.name + ': ' + error.message;
  }
  const missing = await waitForWake('no-such-job', { connection, prefix, timeoutMs: 1000 });
  console.log(JSON.stringify({ ids, ending, invalid, missing }));
  connection.disconnect();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

interface ServiceOutput {
  readonly ids: string[];
  readonly ending: { state: string; result?: Record<string, unknown>; reason?: string };
  readonly invalid: string | null;
  readonly missing: { state: string };
}

/**
 * @podwarden/producer as another team would use it: built, packed with npm pack,
 * installed from the tarball with bullmq and ioredis only into a scratch folder,
 * and run from a separate Node process against the built waker and the simulator.
 */
describe('@podwarden/producer packed and installed elsewhere', () => {
  let stack: Stack;
  let scratch: string;
  let tarball: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'podwarden-producer-'));
    runOrThrow('npx', ['tsc', '-p', join(PACKAGE, 'tsconfig.json')]);
    const packed = JSON.parse(
      runOrThrow('npm', ['pack', '--json', '--pack-destination', scratch], PACKAGE),
    ) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(scratch, packed[0].filename);
    expect(packed[0].files.map((f) => f.path).sort()).toEqual([
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'other-service', private: true }));
    const install = run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        tarball,
        `bullmq@${rootPackage.dependencies.bullmq}`,
        `ioredis@${rootPackage.dependencies.ioredis}`,
      ],
      scratch,
    );
    if (install.status !== 0) throw new Error(`npm install in the scratch folder failed:\n${install.output}`);
    stack = await Stack.start({ name: 'producer-pack', wakers: 1 });
    await resetSim(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('the scratch service depends on the tarball, bullmq and ioredis only', () => {
    const installed = JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(installed.dependencies).sort()).toEqual(['@podwarden/producer', 'bullmq', 'ioredis']);
  });

  it('wakes a pod from a separate process: one job for three callers, one create, the outcome followed', async () => {
    writeFileSync(join(scratch, 'wake.js'), SERVICE_SCRIPT);
    const result = run(
      'env',
      [
        `PATH=${process.env.PATH ?? ''}`,
        `REDIS_URL=${REDIS_URL}`,
        `QUEUE_PREFIX=${stack.prefix}`,
        `VOLUME_ID=${VOLUME_ID}`,
        process.execPath,
        join(scratch, 'wake.js'),
      ],
      scratch,
    );
    expect(result.status).toBe(0);
    const output = JSON.parse(result.output.trim().split('\n').pop()!) as ServiceOutput;

    expect(new Set(output.ids).size).toBe(1);
    expect(output.ending).toMatchObject({ state: 'completed', result: { name: 'qwen', outcome: 'Created' } });
    expect(output.ending.result!.attemptId).toBe(output.ids[0]);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const pods = await simPods(stack);
    expect(pods.map((p) => ({ id: p.id, status: p.status }))).toEqual([
      { id: output.ending.result!.podId, status: 'RUNNING' },
    ]);
    expect(output.invalid).toBe('InvalidWakeRequest: podName must be a non-empty string');
    expect(output.missing).toEqual({ state: 'missing' });
  });
});
