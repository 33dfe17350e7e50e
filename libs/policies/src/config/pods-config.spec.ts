import type { PodConfig, PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';

const FILE_ENV = { PODS_CONFIG: '/etc/podwarden/pods.json' };

function parsed(
  env: Record<string, string | undefined>,
  text: string | null,
): { config: PodwardenConfig; warnings: string[] } {
  const result = parseConfig(env, text);
  if (!result.ok) throw new Error(`expected a config, got: ${result.error}`);
  return result;
}

function errorOf(env: Record<string, string | undefined>, text: string | null): string {
  const result = parseConfig(env, text);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

function podsFile(...pods: unknown[]): string {
  return JSON.stringify({ pods });
}

const richEnv = {
  ...FILE_ENV,
  RUNPOD_POD_NAME: 'ignored-when-a-file-is-set',
  RUNPOD_VOLUME_ID: 'env-volume',
  RUNPOD_TEMPLATE_ID: 'env-template',
  RUNPOD_DATACENTER_ID: 'US-TX-3',
  RUNPOD_POD_PORT: '8001',
  RUNPOD_MIN_VRAM_GB: '48',
  RUNPOD_MAX_PRICE_PER_HOUR: '2.00',
  RUNPOD_GPU_ALLOWLIST: 'A100,H100',
  IDLE_MINUTES: '30',
  RUNPOD_BOOT_GRACE_MINUTES: '25',
  MAX_RUNTIME_MINUTES: '120',
  PROXY_HOLD_SECONDS: '30',
  RIG_INFERENCE_TOKEN: 'env-inference-token',
};

const environmentValues: Omit<PodConfig, 'name'> = {
  volumeId: 'env-volume',
  templateId: 'env-template',
  datacenterId: 'US-TX-3',
  podPort: 8001,
  minVramGb: 48,
  maxPricePerHour: 2,
  gpuAllowlist: ['A100', 'H100'],
  idleMinutes: 30,
  idlePolicy: 'fixed',
  bootGraceMinutes: 25,
  maxRuntimeMinutes: 120,
  proxyHoldSeconds: 30,
  inferenceToken: 'env-inference-token',
};

describe('PODS_CONFIG merging', () => {
  it('is the whole list of pods when set, replacing the environment pod', () => {
    const { config } = parsed(
      richEnv,
      podsFile({ name: 'qwen', volumeId: 'v1' }, { name: 'llama', volumeId: 'v2' }),
    );
    expect(config.pods.map((pod) => pod.name)).toEqual(['qwen', 'llama']);
  });

  it('fills every omitted field from the environment', () => {
    const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen' }));
    expect(config.pods).toEqual([{ name: 'qwen', ...environmentValues }]);
    expect(warnings).toEqual([]);
  });

  it('fills a null field from the environment, like an omitted one', () => {
    const { config } = parsed(richEnv, podsFile({ name: 'qwen', maxPricePerHour: null, volumeId: null }));
    expect(config.pods[0].maxPricePerHour).toBe(2);
    expect(config.pods[0].volumeId).toBe('env-volume');
  });

  it('fills every null field from the environment without a warning', () => {
    const allNull = Object.fromEntries(Object.keys(environmentValues).map((field) => [field, null]));
    const { config, warnings } = parsed(richEnv, podsFile({ ...allNull, name: 'qwen' }));
    expect(config.pods).toEqual([{ name: 'qwen', ...environmentValues }]);
    expect(warnings).toEqual([]);
  });

  it.each([' Adaptive ', 'ADAPTIVE', '\tadaptive\n'])(
    'reads idlePolicy %j as adaptive, like its variable',
    (word) => {
      const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen', idlePolicy: word }));
      expect(config.pods[0].idlePolicy).toBe('adaptive');
      expect(warnings).toEqual([]);
    },
  );

  it('takes every present field over the environment', () => {
    const own: PodConfig = {
      name: 'llama',
      volumeId: 'v2',
      templateId: 't2',
      datacenterId: 'EU-SE-1',
      podPort: 9000,
      minVramGb: 80,
      maxPricePerHour: 3.5,
      gpuAllowlist: ['H200'],
      idleMinutes: 0.5,
      idlePolicy: 'adaptive',
      bootGraceMinutes: 0,
      maxRuntimeMinutes: 0,
      proxyHoldSeconds: 0,
      inferenceToken: 'llama-token',
    };
    const { config, warnings } = parsed(richEnv, podsFile(own));
    expect(config.pods).toEqual([own]);
    expect(warnings).toEqual([]);
  });

  it('reads guard fields given as text under the environment rules', () => {
    const { config } = parsed(richEnv, podsFile({ name: 'qwen', maxPricePerHour: '1.59', podPort: '8002' }));
    expect(config.pods[0].maxPricePerHour).toBe(1.59);
    expect(config.pods[0].podPort).toBe(8002);
  });

  it.each(['', '   ', '\t\n'])(
    'reads a blank text guard field %j as omitted: the environment value, no warning',
    (blank) => {
      const { config, warnings } = parsed(
        richEnv,
        podsFile({ name: 'qwen', idleMinutes: blank, podPort: blank }),
      );
      expect(config.pods).toEqual([{ name: 'qwen', ...environmentValues }]);
      expect(warnings).toEqual([]);
    },
  );

  it('reads a JSON -0 as plain 0, never a negative zero', () => {
    const { config } = parsed(
      richEnv,
      '{"pods": [{"name": "qwen", "minVramGb": -0, "maxPricePerHour": -0}]}',
    );
    expect(config.pods[0].minVramGb).toBe(0);
    expect(config.pods[0].maxPricePerHour).toBe(0);
  });

  it.each([
    [
      ['A100 ', '', ' h100'],
      ['A100', 'h100'],
    ],
    ['A100, ,h100', ['A100', 'h100']],
    [[], []],
  ])('reads gpuAllowlist %j as %j (trimmed, blanks dropped, case kept)', (given, expected) => {
    expect(
      parsed(richEnv, podsFile({ name: 'qwen', gpuAllowlist: given })).config.pods[0].gpuAllowlist,
    ).toEqual(expected);
  });

  it('keeps an explicitly blank volumeId: that pod is unconfigured', () => {
    expect(parsed(richEnv, podsFile({ name: 'qwen', volumeId: ' ' })).config.pods[0].volumeId).toBe('');
  });

  it('does not count blank volume ids as duplicates', () => {
    const { config } = parsed({ ...FILE_ENV }, podsFile({ name: 'a' }, { name: 'b', volumeId: '' }));
    expect(config.pods.map((pod) => pod.volumeId)).toEqual(['', '']);
  });

  it('does not check RUNPOD_POD_NAME when a file replaces it', () => {
    expect(parseConfig({ ...FILE_ENV, RUNPOD_POD_NAME: 'not url safe' }, podsFile({ name: 'qwen' })).ok).toBe(
      true,
    );
  });

  it('ignores pods file text when PODS_CONFIG is unset', () => {
    expect(
      parsed({ RUNPOD_POD_NAME: 'qwen' }, podsFile({ name: 'other' })).config.pods.map((p) => p.name),
    ).toEqual(['qwen']);
  });
});

describe('PODS_CONFIG per-pod warnings: a bad guard field keeps the environment value', () => {
  it.each([
    ['maxPricePerHour', '1,50', 'is not a non-negative dot decimal such as 1.50; using 2.00'],
    ['maxPricePerHour', -1, 'is not a non-negative dot decimal such as 1.50; using 2.00'],
    ['maxPricePerHour', '1e3', 'is not a non-negative dot decimal such as 1.50; using 2.00'],
    ['maxPricePerHour', true, 'is not a non-negative dot decimal such as 1.50; using 2.00'],
    ['podPort', 0, 'is not a port number in 1..65535; using 8001'],
    ['podPort', 80.5, 'is not a port number in 1..65535; using 8001'],
    ['minVramGb', 'many', 'is not a non-negative integer; using 48'],
    ['idleMinutes', 0, 'is not a positive decimal such as 0.5; using 30'],
    ['bootGraceMinutes', -0.5, 'is not a non-negative decimal such as 0.5; using 25'],
    ['maxRuntimeMinutes', -1.5, 'is not a non-negative decimal such as 0.5; using 120'],
    ['maxRuntimeMinutes', [], 'is not a non-negative decimal such as 0.5; using 120'],
    // Neither a number nor text, even though it would print as a valid one.
    ['podPort', [9000], 'is not a port number in 1..65535; using 8001'],
    ['maxPricePerHour', ['1.50'], 'is not a non-negative dot decimal such as 1.50; using 2.00'],
    ['idlePolicy', 'learned', 'is not one of fixed, adaptive; using fixed'],
    ['idlePolicy', 1, 'is not one of fixed, adaptive; using fixed'],
  ])('pods[0].%s=%j', (field, bad, complaint) => {
    const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen', [field]: bad }));
    expect(config.pods[0]).toEqual({ name: 'qwen', ...environmentValues });
    expect(warnings).toEqual([`PODS_CONFIG pods[0].${field}=${JSON.stringify(bad)} ${complaint}`]);
  });

  it('quotes a kept cap finer than cents exactly, never rounded to a looser-looking 0.13', () => {
    const { config, warnings } = parsed(
      { ...richEnv, RUNPOD_MAX_PRICE_PER_HOUR: '0.125' },
      podsFile({ name: 'qwen', maxPricePerHour: 'cheap' }),
    );
    expect(config.pods[0].maxPricePerHour).toBe(0.125);
    expect(warnings).toEqual([
      'PODS_CONFIG pods[0].maxPricePerHour="cheap" is not a non-negative dot decimal such as 1.50; using 0.125',
    ]);
  });

  it('names the index of the pod that carries the bad field', () => {
    const { warnings } = parsed(
      richEnv,
      podsFile({ name: 'a', volumeId: 'v1' }, { name: 'b', volumeId: 'v2', idleMinutes: 'soon' }),
    );
    expect(warnings).toEqual([
      'PODS_CONFIG pods[1].idleMinutes="soon" is not a positive decimal such as 0.5; using 30',
    ]);
  });

  it.each([
    [5, 'PODS_CONFIG pods[0].gpuAllowlist=5 is not a list of GPU ids; using "A100,H100"'],
    [['A100', 7], 'PODS_CONFIG pods[0].gpuAllowlist=["A100",7] is not a list of GPU ids; using "A100,H100"'],
  ])('a bad gpuAllowlist %j keeps the environment allowlist', (bad, warning) => {
    const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen', gpuAllowlist: bad }));
    expect(config.pods[0].gpuAllowlist).toEqual(['A100', 'H100']);
    expect(warnings).toEqual([warning]);
  });

  it('a bad gpuAllowlist with no environment allowlist says none', () => {
    expect(parsed(FILE_ENV, podsFile({ name: 'qwen', gpuAllowlist: {} })).warnings).toEqual([
      'PODS_CONFIG pods[0].gpuAllowlist={} is not a list of GPU ids; using none',
    ]);
  });

  it('a blank datacenterId keeps the environment datacenter with a warning', () => {
    const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen', datacenterId: '' }));
    expect(config.pods[0].datacenterId).toBe('US-TX-3');
    expect(warnings).toEqual(['PODS_CONFIG pods[0].datacenterId is blank; using "US-TX-3"']);
  });

  it('warns about an unknown field so a typo does not silently keep the environment value', () => {
    const { config, warnings } = parsed(
      richEnv,
      JSON.stringify({ pods: [{ name: 'qwen', maxPricePerHr: 3 }], version: 1 }),
    );
    expect(config.pods[0].maxPricePerHour).toBe(2);
    expect(warnings).toEqual([
      'PODS_CONFIG: field "version" is not known; ignored',
      'PODS_CONFIG pods[0]: field "maxPricePerHr" is not known; ignored',
    ]);
  });
});

describe('PODS_CONFIG structural errors refuse to start', () => {
  it.each([
    ['not JSON', '{ pods: ', /^PODS_CONFIG is not valid JSON \(.+\)$/],
    ['a top-level array', '[]', /^PODS_CONFIG must be an object \{ "pods": \[ \.\.\. \] \}$/],
    ['no pods key', '{}', /^PODS_CONFIG must be an object \{ "pods": \[ \.\.\. \] \}$/],
    [
      'pods not an array',
      '{"pods": {"name": "qwen"}}',
      /^PODS_CONFIG must be an object \{ "pods": \[ \.\.\. \] \}$/,
    ],
    ['JSON null', 'null', /^PODS_CONFIG must be an object \{ "pods": \[ \.\.\. \] \}$/],
    ['an empty pods list', '{"pods": []}', /^PODS_CONFIG lists no pods; "pods" needs at least one$/],
    ['a pod that is not an object', '{"pods": ["qwen"]}', /^PODS_CONFIG pods\[0\] is not an object$/],
    ['a pod that is JSON null', '{"pods": [null]}', /^PODS_CONFIG pods\[0\] is not an object$/],
    [
      'a later pod that is JSON null',
      '{"pods": [{"name": "qwen"}, null]}',
      /^PODS_CONFIG pods\[1\] is not an object$/,
    ],
  ])('%s', (_case, text, message) => {
    expect(errorOf(FILE_ENV, text)).toMatch(message);
  });

  it.each([
    ['a pod without a name', podsFile({ volumeId: 'v1' }), 'PODS_CONFIG pods[0] has no name'],
    ['a blank name', podsFile({ name: '  ' }), 'PODS_CONFIG pods[0] has no name'],
    ['a name that is not a string', podsFile({ name: 7 }), 'PODS_CONFIG pods[0] has no name'],
    [
      'a name with a space',
      podsFile({ name: 'my pod' }),
      'PODS_CONFIG pods[0].name="my pod" is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
    [
      'a name with a slash',
      podsFile({ name: 'a/b' }),
      'PODS_CONFIG pods[0].name="a/b" is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
    [
      'a dot-dot name',
      podsFile({ name: '..' }),
      'PODS_CONFIG pods[0].name=".." is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
    [
      'duplicate names differing only in case',
      podsFile({ name: 'qwen', volumeId: 'v1' }, { name: 'QWEN', volumeId: 'v2' }),
      'PODS_CONFIG pods[1].name "QWEN" duplicates pods[0].name "qwen" (names are case-insensitive)',
    ],
    [
      'duplicate volume ids',
      podsFile({ name: 'a', volumeId: 'v1' }, { name: 'b', volumeId: 'v2' }, { name: 'c', volumeId: 'v1' }),
      'PODS_CONFIG pods[2].volumeId "v1" duplicates pods[0].volumeId (one volume, one pod)',
    ],
    [
      'two pods inheriting the same environment volume',
      podsFile({ name: 'a' }, { name: 'b' }),
      'PODS_CONFIG pods[1].volumeId "env-volume" duplicates pods[0].volumeId (one volume, one pod)',
    ],
    [
      'a volumeId that is not a string',
      podsFile({ name: 'a', volumeId: 42 }),
      'PODS_CONFIG pods[0].volumeId must be a string',
    ],
    [
      'a templateId that is not a string',
      podsFile({ name: 'a', templateId: {} }),
      'PODS_CONFIG pods[0].templateId must be a string',
    ],
    [
      'a datacenterId that is not a string',
      podsFile({ name: 'a', datacenterId: 1 }),
      'PODS_CONFIG pods[0].datacenterId must be a string',
    ],
  ])('%s', (_case, text, message) => {
    expect(errorOf(richEnv, text)).toBe(message);
  });

  it('PODS_CONFIG set without file content is an error, not a silent single pod', () => {
    expect(errorOf(FILE_ENV, null)).toBe('PODS_CONFIG is set but its file content was not provided');
  });

  it('an error is one line', () => {
    expect(errorOf(FILE_ENV, '{\n  "pods": [\n')).not.toMatch(/\n/);
  });

  it("keeps the JSON parser's reason, each run of whitespace in it collapsed to one space", () => {
    // Node's parser quotes the text near the fault, whitespace included.
    const error = errorOf(FILE_ENV, '\n\n\t  nope');
    const reason = /^PODS_CONFIG is not valid JSON \((.+)\)$/.exec(error)?.[1];
    expect(reason).toContain('Unexpected token');
    expect(reason).toContain(' nope');
    expect(reason).not.toMatch(/\s\s|[^\S ]/);
  });
});

describe('PODS_CONFIG inference proxy fields', () => {
  it('a pod without its own token or hold takes the environment’s; one with them keeps its own', () => {
    const { config } = parsed(
      richEnv,
      podsFile(
        { name: 'qwen' },
        { name: 'llama', volumeId: 'v2', inferenceToken: ' own ', proxyHoldSeconds: 5 },
      ),
    );
    expect(config.pods.map((pod) => [pod.inferenceToken, pod.proxyHoldSeconds])).toEqual([
      ['env-inference-token', 30],
      ['own', 5],
    ]);
  });

  it('a non-string token refuses the file without quoting the value', () => {
    const result = parseConfig(FILE_ENV, podsFile({ name: 'qwen', inferenceToken: 12345 }));
    expect(result).toEqual({ ok: false, error: 'PODS_CONFIG pods[0].inferenceToken must be a string' });
  });

  it('a bad proxyHoldSeconds keeps the environment’s with a warning', () => {
    const { config, warnings } = parsed(richEnv, podsFile({ name: 'qwen', proxyHoldSeconds: -3 }));
    expect(config.pods[0].proxyHoldSeconds).toBe(30);
    expect(warnings).toEqual([
      expect.stringContaining('pods[0].proxyHoldSeconds=-3 is not an integer in 0..'),
    ]);
  });
});
