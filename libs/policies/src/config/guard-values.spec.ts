import type { PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';

function parsed(env: Record<string, string | undefined>): { config: PodwardenConfig; warnings: string[] } {
  const result = parseConfig(env, null);
  if (!result.ok) throw new Error(`expected a config, got: ${result.error}`);
  return result;
}

interface Guard {
  variable: string;
  pick: (config: PodwardenConfig) => unknown;
  fallback: unknown;
  /** The warning's tail after `VARIABLE="value" `. */
  complaint: string;
  /** Values outside the range or the number kind, beyond the shared bad inputs. */
  outOfRange: string[];
}

const guards: Guard[] = [
  {
    variable: 'RUNPOD_MIN_VRAM_GB',
    pick: (c) => c.pods[0].minVramGb,
    fallback: 32,
    complaint: 'is not a non-negative integer; using 32',
    outOfRange: ['1.5', '99999999999999999999'],
  },
  {
    variable: 'RUNPOD_MAX_PRICE_PER_HOUR',
    pick: (c) => c.pods[0].maxPricePerHour,
    fallback: 1,
    complaint: 'is not a non-negative dot decimal such as 1.50; using 1.00',
    outOfRange: ['1.', '.5', '1.5.0', '$2', '2 USD'],
  },
  {
    variable: 'RUNPOD_POD_PORT',
    pick: (c) => c.pods[0].podPort,
    fallback: 8000,
    complaint: 'is not a port number in 1..65535; using 8000',
    outOfRange: ['0', '65536', '80.5'],
  },
  {
    variable: 'IDLE_MINUTES',
    pick: (c) => c.pods[0].idleMinutes,
    fallback: 15,
    complaint: 'is not a positive decimal such as 0.5; using 15',
    outOfRange: ['0', '0.0', `1${'0'.repeat(400)}`],
  },
  {
    variable: 'CHECK_SECONDS',
    pick: (c) => c.checkSeconds,
    fallback: 60,
    complaint: 'is not an integer in 1..2147483; using 60',
    outOfRange: ['0', '1.5', '2147484'],
  },
  {
    variable: 'MAX_RUNTIME_MINUTES',
    pick: (c) => c.pods[0].maxRuntimeMinutes,
    fallback: 360,
    complaint: 'is not a non-negative decimal such as 0.5; using 360',
    outOfRange: ['5.', '.5'],
  },
  {
    variable: 'RUNPOD_BOOT_GRACE_MINUTES',
    pick: (c) => c.pods[0].bootGraceMinutes,
    fallback: 20,
    complaint: 'is not a non-negative decimal such as 0.5; using 20',
    outOfRange: ['.5'],
  },
  {
    variable: 'WAKE_MAX_POLLS',
    pick: (c) => c.wake.maxPolls,
    fallback: 30,
    complaint: 'is not an integer ≥ 1; using 30',
    outOfRange: ['0', '2.5'],
  },
  {
    variable: 'WAKE_POLL_INTERVAL_MS',
    pick: (c) => c.wake.pollIntervalMs,
    fallback: 10000,
    complaint: 'is not an integer in 1..2147483647; using 10000',
    outOfRange: ['0', '2147483648', '10.5'],
  },
  {
    variable: 'WAKE_MAX_RETRY_AFTER_SECONDS',
    pick: (c) => c.wake.maxRetryAfterSeconds,
    fallback: 30,
    complaint: 'is not an integer in 0..2147483; using 30',
    outOfRange: ['2147484', '0.5'],
  },
  {
    variable: 'WAKE_REQUEST_WAIT_SECONDS',
    pick: (c) => c.wake.requestWaitSeconds,
    fallback: 25,
    complaint: 'is not an integer in 0..2147483; using 25',
    outOfRange: ['2147484', '0.5'],
  },
  {
    variable: 'ORPHAN_GRACE_MINUTES',
    pick: (c) => c.orphanGraceMinutes,
    fallback: 10,
    complaint: 'is not a non-negative decimal such as 0.5; using 10',
    outOfRange: ['5.'],
  },
  {
    variable: 'KEEP_ALIVE_MAX_MINUTES',
    pick: (c) => c.keepAliveMaxMinutes,
    fallback: 1440,
    complaint: 'is not a decimal above 0 and at most 1440; using 1440',
    outOfRange: ['0', '1440.5', '2000'],
  },
  {
    variable: 'PORT',
    pick: (c) => c.http.port,
    fallback: 8080,
    complaint: 'is not a port number in 1..65535; using 8080',
    outOfRange: ['0', '65536'],
  },
  {
    variable: 'HEALTH_PORT',
    pick: (c) => c.healthPort,
    fallback: null,
    complaint: 'is not a port number in 1..65535; using unset (no health port)',
    outOfRange: ['0', '70000'],
  },
];

// Not numbers, negative, locale-formatted, signed, exponent, padded or special.
const sharedBadInputs = ['many', '-1', '1,50', '1e3', '+1', ' 1', '1 ', 'Infinity', 'NaN', '0x10', '1_000'];

const badRows = guards.flatMap((guard) =>
  [...sharedBadInputs, ...guard.outOfRange].map(
    (bad) => [guard.variable, bad, guard] as [string, string, Guard],
  ),
);

describe('a bad guard value keeps its default and adds one warning naming variable, value and default', () => {
  it.each(badRows)('%s=%j', (variable, bad, guard) => {
    const result = parsed({ [variable]: bad });
    expect(guard.pick(result.config)).toEqual(guard.fallback);
    const shown = bad.length > 78 ? `"${bad.slice(0, 79)}…` : `"${bad}"`;
    expect(result.warnings).toEqual([`${variable}=${shown} ${guard.complaint}`]);
  });
});

describe('a blank guard value is unset: default, no warning', () => {
  it.each(
    guards.flatMap((guard) => ['', '   ', '\t'].map((blank) => [guard.variable, blank, guard] as const)),
  )('%s=%j', (variable, blank, guard) => {
    const result = parsed({ [variable]: blank });
    expect(guard.pick(result.config)).toEqual(guard.fallback);
    expect(result.warnings).toEqual([]);
  });
});

describe('the seed examples', () => {
  it('RUNPOD_MIN_VRAM_GB="many" warns exactly as the seed words it', () => {
    expect(parsed({ RUNPOD_MIN_VRAM_GB: 'many' }).warnings).toEqual([
      'RUNPOD_MIN_VRAM_GB="many" is not a non-negative integer; using 32',
    ]);
  });

  it('a European "1,50" price cap is refused and 1.00 applies, never 150', () => {
    const result = parsed({ RUNPOD_MAX_PRICE_PER_HOUR: '1,50' });
    expect(result.config.pods[0].maxPricePerHour).toBe(1);
    expect(result.warnings).toEqual([
      'RUNPOD_MAX_PRICE_PER_HOUR="1,50" is not a non-negative dot decimal such as 1.50; using 1.00',
    ]);
  });

  it('the deployed "2.00" price cap is read as 2', () => {
    expect(parsed({ RUNPOD_MAX_PRICE_PER_HOUR: '2.00' }).config.pods[0].maxPricePerHour).toBe(2);
  });

  it('IDLE_MINUTES accepts a fraction of a minute ("0.1")', () => {
    expect(parsed({ IDLE_MINUTES: '0.1' }).config.pods[0].idleMinutes).toBe(0.1);
  });

  it('WAKE_CREATE_SETTLE_SECONDS is read from its own variable', () => {
    const result = parseConfig({ WAKE_CREATE_SETTLE_SECONDS: '90' }, null);
    if (!result.ok) throw new Error(result.error);
    expect(result.config.wake.createSettleSeconds).toBe(90);
    expect(result.warnings).toEqual([]);
  });

  it('CHECK_SECONDS refuses a fraction ("1.5")', () => {
    const result = parsed({ CHECK_SECONDS: '1.5' });
    expect(result.config.checkSeconds).toBe(60);
    expect(result.warnings).toEqual(['CHECK_SECONDS="1.5" is not an integer in 1..2147483; using 60']);
  });
});

describe('word-valued settings', () => {
  it.each([
    [
      'IDLE_DRY_RUN',
      'maybe',
      (c: PodwardenConfig) => c.idleDryRun,
      false,
      'IDLE_DRY_RUN="maybe" is not one of true, false, 1, 0, yes, no; using false',
    ],
    [
      'IDLE_DRY_RUN',
      ' true',
      (c: PodwardenConfig) => c.idleDryRun,
      false,
      'IDLE_DRY_RUN=" true" is not one of true, false, 1, 0, yes, no; using false',
    ],
    [
      'IDLE_POLICY',
      'learned',
      (c: PodwardenConfig) => c.pods[0].idlePolicy,
      'fixed',
      'IDLE_POLICY="learned" is not one of fixed, adaptive; using fixed',
    ],
    [
      'PREWAKE',
      'yes',
      (c: PodwardenConfig) => c.rhythm.prewake,
      true,
      'PREWAKE="yes" is not one of on, off; using on',
    ],
    [
      'OPERATOR_GATE',
      'disabled',
      (c: PodwardenConfig) => c.operatorGate,
      'on',
      'OPERATOR_GATE="disabled" is not one of on, off; using on',
    ],
    [
      'OPERATOR_GATE',
      'false',
      (c: PodwardenConfig) => c.operatorGate,
      'on',
      'OPERATOR_GATE="false" is not one of on, off; using on',
    ],
    [
      'LOG_LEVEL',
      'verbose',
      (c: PodwardenConfig) => c.logLevel,
      'info',
      'LOG_LEVEL="verbose" is not one of fatal, error, warn, info, debug, trace; using info',
    ],
    [
      'LOG_LEVEL',
      'silent',
      (c: PodwardenConfig) => c.logLevel,
      'info',
      'LOG_LEVEL="silent" is not one of fatal, error, warn, info, debug, trace; using info',
    ],
  ])('%s=%j keeps its default (fail closed) with one warning', (variable, bad, pick, fallback, warning) => {
    const result = parsed({ [variable]: bad });
    expect(pick(result.config)).toEqual(fallback);
    expect(result.warnings).toEqual([warning]);
  });
});

describe('warning text', () => {
  it('escapes control characters so a value cannot forge a second log line', () => {
    expect(parsed({ IDLE_MINUTES: 'x\nWARN forged' }).warnings).toEqual([
      'IDLE_MINUTES="x\\nWARN forged" is not a positive decimal such as 0.5; using 15',
    ]);
  });

  it('gives one warning per bad variable, in a stable order', () => {
    const result = parsed({ RUNPOD_MIN_VRAM_GB: 'many', CHECK_SECONDS: '0', LOG_LEVEL: 'loud' });
    expect(result.warnings).toEqual([
      'RUNPOD_MIN_VRAM_GB="many" is not a non-negative integer; using 32',
      'CHECK_SECONDS="0" is not an integer in 1..2147483; using 60',
      'LOG_LEVEL="loud" is not one of fatal, error, warn, info, debug, trace; using info',
    ]);
  });
});

describe('the adaptive window bounds', () => {
  it('a floor above the ceiling is refused: the floor falls back within the ceiling', () => {
    const result = parseConfig({ IDLE_MIN_MINUTES: '10', IDLE_MAX_MINUTES: '5' }, null);
    if (!result.ok) throw new Error(result.error);
    expect(result.config.rhythm).toMatchObject({ minMinutes: 2, maxMinutes: 5 });
    expect(result.warnings).toEqual(['IDLE_MIN_MINUTES=10 is above IDLE_MAX_MINUTES=5; using 2']);
  });

  it('a floor equal to the ceiling is kept, without a warning', () => {
    const result = parseConfig({ IDLE_MIN_MINUTES: '5', IDLE_MAX_MINUTES: '5' }, null);
    if (!result.ok) throw new Error(result.error);
    expect(result.config.rhythm).toMatchObject({ minMinutes: 5, maxMinutes: 5 });
    expect(result.warnings).toEqual([]);
  });

  it("a bad ceiling keeps each pod's own window as the ceiling", () => {
    const result = parseConfig({ IDLE_MAX_MINUTES: 'lots' }, null);
    if (!result.ok) throw new Error(result.error);
    expect(result.config.rhythm.maxMinutes).toBeNull();
    expect(result.warnings).toEqual([
      'IDLE_MAX_MINUTES="lots" is not a positive decimal such as 0.5; using unset (each pod\'s IDLE_MINUTES)',
    ]);
  });
});
