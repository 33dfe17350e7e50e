import fc from 'fast-check';
import type { PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';

function parsed(
  env: Record<string, string>,
  podsText: string | null = null,
): { config: PodwardenConfig; warnings: string[] } {
  const result = parseConfig(env, podsText);
  if (!result.ok) throw new Error(`expected a config, got: ${result.error}`);
  return result;
}

const DOT_DECIMAL = /^\d+(\.\d+)?$/;

// Text that looks like a price to a person but is not a dot decimal.
const priceLookalike = fc.oneof(
  fc.tuple(fc.nat(999), fc.nat(99)).map(([units, cents]) => `${units},${cents}`),
  fc.tuple(fc.nat(9), fc.nat(9)).map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
  fc.nat(999).map((n) => `+${n}`),
  fc.nat(999).map((n) => `-${n}`),
  fc.nat(999).map((n) => ` ${n}`),
  fc.nat(999).map((n) => `${n} `),
  fc.nat(999).map((n) => `1_${n}`),
  fc.nat(999).map((n) => `$${n}`),
  fc.constantFrom('Infinity', 'NaN', '0x10', '.5', '5.', '1.5.0', '1 000', '١٫٥'),
);

const anyText = fc.oneof(priceLookalike, fc.string({ unit: 'binary-ascii', maxLength: 20 }));

describe('a bad guard value never yields a looser guard than its default', () => {
  it('an unparseable price cap is exactly the 1.00 default, never above it', () => {
    fc.assert(
      fc.property(priceLookalike, (text) => {
        fc.pre(text.trim() !== '');
        const { config, warnings } = parsed({ RUNPOD_MAX_PRICE_PER_HOUR: text });
        expect(config.pods[0].maxPricePerHour).toBe(1);
        expect(warnings).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });

  it('the price cap is either exactly what a dot decimal says or the default', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const cap = parsed({ RUNPOD_MAX_PRICE_PER_HOUR: text }).config.pods[0].maxPricePerHour;
        expect(cap).toBe(DOT_DECIMAL.test(text) ? Number(text) : 1);
      }),
      { numRuns: 500 },
    );
  });

  it('an unparseable daily budget refuses the configuration: never off, never some other ceiling', () => {
    fc.assert(
      fc.property(priceLookalike, (text) => {
        fc.pre(text.trim() !== '');
        const result = parseConfig({ DAILY_BUDGET_USD: text }, null);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.startsWith('DAILY_BUDGET_USD=')).toBe(true);
      }),
    );
  });

  it('a daily budget is exactly the dot decimal it spells, or no configuration at all', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = parseConfig({ DAILY_BUDGET_USD: text }, null);
        if (text.trim() === '') expect(result.ok && result.config.dailyBudgetUsd).toBeNull();
        else if (DOT_DECIMAL.test(text) && Number(text) > 0)
          expect(result.ok && result.config.dailyBudgetUsd).toBe(Number(text));
        else expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  const numericGuards: [string, (config: PodwardenConfig) => number | null, number | null][] = [
    ['RUNPOD_MIN_VRAM_GB', (c) => c.pods[0].minVramGb, 32],
    ['RUNPOD_MAX_PRICE_PER_HOUR', (c) => c.pods[0].maxPricePerHour, 1],
    ['RUNPOD_POD_PORT', (c) => c.pods[0].podPort, 8000],
    ['IDLE_MINUTES', (c) => c.pods[0].idleMinutes, 15],
    ['CHECK_SECONDS', (c) => c.checkSeconds, 60],
    ['MAX_RUNTIME_MINUTES', (c) => c.pods[0].maxRuntimeMinutes, 360],
    ['RUNPOD_BOOT_GRACE_MINUTES', (c) => c.pods[0].bootGraceMinutes, 20],
    ['WAKE_MAX_POLLS', (c) => c.wake.maxPolls, 30],
    ['WAKE_POLL_INTERVAL_MS', (c) => c.wake.pollIntervalMs, 10000],
    ['WAKE_MAX_RETRY_AFTER_SECONDS', (c) => c.wake.maxRetryAfterSeconds, 30],
    ['WAKE_REQUEST_WAIT_SECONDS', (c) => c.wake.requestWaitSeconds, 25],
    ['WAKE_JOB_LOCK_MS', (c) => c.wake.jobLockMs, 30000],
    ['ORPHAN_GRACE_MINUTES', (c) => c.orphanGraceMinutes, 10],
    ['STOP_CONFIRM_TICKS', (c) => c.stopConfirm.ticks, 3],
    ['STOP_CONFIRM_MAX_RESTOPS', (c) => c.stopConfirm.maxRestops, 2],
    ['KEEP_ALIVE_MAX_MINUTES', (c) => c.keepAliveMaxMinutes, 1440],
    ['PORT', (c) => c.http.port, 8080],
    ['HEALTH_PORT', (c) => c.healthPort, null],
    ['STATUS_MAX_AGE_MS', (c) => c.tuning.statusMaxAgeMs, 2000],
  ];

  it.each(numericGuards)(
    '%s is either the exact number its text spells, or its default with one warning',
    (variable, pick, fallback) => {
      fc.assert(
        fc.property(anyText, (text) => {
          const { config, warnings } = parsed({ [variable]: text });
          const value = pick(config);
          if (warnings.length === 0) {
            // Accepted: only blank (unset) or a plain unsigned number the text spells exactly.
            expect(text.trim() === '' ? fallback : Number(text)).toBe(value);
            if (text.trim() !== '') expect(text).toMatch(DOT_DECIMAL);
          } else {
            expect(value).toBe(fallback);
            expect(warnings).toHaveLength(1);
            expect(warnings[0].startsWith(`${variable}=`)).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    },
  );

  it('a bad per-pod price in PODS_CONFIG keeps the environment cap, never a higher one', () => {
    fc.assert(
      fc.property(
        fc.oneof(priceLookalike, fc.jsonValue()),
        fc.constantFrom('0.50', '1.00', '2.00'),
        (generated, environmentCap) => {
          const text = JSON.stringify({ pods: [{ name: 'qwen', maxPricePerHour: generated }] });
          // The oracle judges what the file holds: JSON writes -0 as 0.
          const given: unknown = JSON.parse(text).pods[0].maxPricePerHour;
          const cap = parsed({ PODS_CONFIG: 'pods.json', RUNPOD_MAX_PRICE_PER_HOUR: environmentCap }, text)
            .config.pods[0].maxPricePerHour;
          const spelled =
            typeof given === 'number' && Number.isFinite(given) && given >= 0
              ? given
              : typeof given === 'string' && DOT_DECIMAL.test(given)
                ? Number(given)
                : null;
          expect(cap).toBe(spelled ?? Number(environmentCap));
        },
      ),
      { numRuns: 500, examples: [[-0, '0.50']] },
    );
  });
});
