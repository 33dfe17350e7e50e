import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, type AppName } from '../support/app-process';
import { freePort } from '../support/free-port';
import { leakedSecrets } from '../support/secret-forms';
import { TEST_API_KEY, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from '../support/test-env';

/**
 * A PODS_CONFIG file with every kind of wrongness: each app refuses to start
 * with exactly one stderr line that names PODS_CONFIG, exits non-zero and
 * echoes no secret (the tokens are in its environment, the key too).
 */
const pod = (fields: Record<string, unknown> = {}) => ({ name: 'qwen', volumeId: 'vol-a', ...fields });
const json = (value: unknown) => JSON.stringify(value);

/** Structurally unusable: every app refuses to start. */
const REFUSED: Array<[string, string | Buffer | null]> = [
  ['a path that does not exist', null],
  ['an empty file', ''],
  ['only whitespace', ' \n\t '],
  ['truncated JSON', '{"pods":[{"name":"qwen",'],
  ['JSON null', 'null'],
  ['a JSON array', json([pod()])],
  ['a JSON string', json('pods')],
  ['pods not an array', json({ pods: 'qwen' })],
  ['pods with a null entry', json({ pods: [null] })],
  ['a pod without a name', json({ pods: [{ volumeId: 'vol-a' }] })],
  ['a name with a slash', json({ pods: [pod({ name: 'qwen/../admin' })] })],
  ['a name with NUL', json({ pods: [pod({ name: 'qwen\u0000' })] })],
  ['a 10 kB name', json({ pods: [pod({ name: 'q'.repeat(10_240) })] })],
  ['names equal but for case', json({ pods: [pod(), pod({ name: 'QWEN', volumeId: 'vol-b' })] })],
  ['one volume twice', json({ pods: [pod(), pod({ name: 'other' })] })],
  ['binary garbage', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256))],
  [
    'UTF-16 with a BOM',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json({ pods: [pod()] }), 'utf16le')]),
  ],
];

/**
 * Usable but wrong in one field: by the contract a bad guard value never widens its guard (the
 * default applies with one Warning naming it) and an unknown field is ignored with a Warning.
 */
const TOLERATED: Array<[string, string, RegExp]> = [
  [
    'an unknown field',
    json({ pods: [pod({ gpuTypeIds: ['x'] })] }),
    /pods\[0\]: field "gpuTypeIds" is not known/,
  ],
  [
    'an unknown top-level field',
    json({ pods: [pod()], extra: 1 }),
    /PODS_CONFIG: field "extra" is not known/,
  ],
  ['a port out of range', json({ pods: [pod({ podPort: 70_000 })] }), /podPort=70000 .*using 8000/],
  ['negative idle minutes', json({ pods: [pod({ idleMinutes: -1 })] }), /idleMinutes=-1 .*using 15/],
  [
    'a price as an object',
    json({ pods: [pod({ maxPricePerHour: { $lt: 9 } })] }),
    /maxPricePerHour=.*using 1\.00/,
  ],
  [
    'a __proto__ key carrying a price',
    '{"pods":[{"name":"qwen","volumeId":"vol-a","__proto__":{"maxPricePerHour":99}}]}',
    /pods\[0\]: field "__proto__" is not known/,
  ],
  [
    'a constructor key',
    json({ pods: [pod({ constructor: { prototype: { x: 1 } } })] }),
    /field "constructor" is not known/,
  ],
];

const SECRETS_ENV = {
  RUNPOD_API_KEY: TEST_API_KEY,
  RIG_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
  RIG_WAKE_TOKEN: TEST_WAKE_TOKEN,
  REDIS_URL: 'redis://127.0.0.1:1',
};

describe('a hostile PODS_CONFIG file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-hostile-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fileFor = (index: number, content: string | Buffer | null): string => {
    const path = join(dir, `pods-${index}.json`);
    if (content !== null) writeFileSync(path, content);
    return path;
  };

  const refuses = async (app: AppName, path: string, label: string) => {
    const proc = AppProcess.start(app, { ...SECRETS_ENV, PODS_CONFIG: path }, label);
    const code = await proc.waitForExit();
    const stderr = proc.stderr.join('').trim().split('\n');
    expect(code).not.toBe(0);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/PODS_CONFIG|pods\[/);
    expect(stderr[0].length).toBeLessThan(1000);
    expect(leakedSecrets(proc.stderr.join('') + proc.lines.map((l) => l.raw).join('\n'))).toEqual([]);
  };

  it.each(REFUSED.map(([what, content], i) => [what, i, content] as const))(
    'the gateway refuses %s with one line',
    async (_what, index, content) => {
      await refuses('gateway', fileFor(index, content), `podscfg-gateway-${index}`);
    },
  );

  const FEW = [1, 4, 12, 13].map((i) => [REFUSED[i][0], i, REFUSED[i][1]] as const);
  it.each(FEW)('the waker and the idle monitor refuse %s with one line', async (_what, index, content) => {
    const path = fileFor(100 + index, content);
    await Promise.all([
      refuses('waker', path, `podscfg-waker-${index}`),
      refuses('idle-monitor', path, `podscfg-idle-${index}`),
    ]);
  });

  it.each(TOLERATED.map(([what, content, warning], i) => [what, i, content, warning] as const))(
    'the gateway starts despite %s, with one Warning naming it and no secret',
    async (_what, index, content, warning) => {
      const port = await freePort();
      const proc = AppProcess.start(
        'gateway',
        { ...SECRETS_ENV, PODS_CONFIG: fileFor(200 + index, content), PORT: String(port), HOST: '127.0.0.1' },
        `podscfg-tolerated-${index}`,
      );
      try {
        const line = await proc.waitForLine((l) => warning.test(l.msg), 20_000, String(warning));
        expect(line.json?.level).toBe(40);
        expect(proc.lines.filter((l) => warning.test(l.msg))).toHaveLength(1);
        expect(proc.running).toBe(true);
      } finally {
        await proc.stop();
      }
      expect(leakedSecrets(proc.stderr.join('') + proc.lines.map((l) => l.raw).join('\n'))).toEqual([]);
      expect(({} as Record<string, unknown>).maxPricePerHour).toBeUndefined();
    },
  );
});
