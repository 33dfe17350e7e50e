import fc from 'fast-check';
import { DEFAULTS, SECRET_VARIABLES } from './config-defaults';
import type { PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';

type Env = Record<string, string | undefined>;

/** Every warning and error line a parse produced. */
function outputLines(env: Env, podsText: string | null): string[] {
  const result = parseConfig(env, podsText);
  return result.ok ? result.warnings : [result.error];
}

const publicVariables = Object.keys(DEFAULTS).filter(
  (name) => !(SECRET_VARIABLES as readonly string[]).includes(name),
);

const badValue = fc.oneof(
  fc.constantFrom(
    'many',
    '-1',
    '1,50',
    '1e3',
    '+1',
    ' 1',
    'Infinity',
    '0',
    '',
    'http://',
    'redis:',
    'a b',
    'OFF!',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
);

const publicEnv = fc.record(
  Object.fromEntries(publicVariables.map((name) => [name, fc.option(badValue, { nil: undefined })])),
  { requiredKeys: [] },
) as fc.Arbitrary<Env>;

const podsText = fc.option(
  fc.oneof(
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    fc.json(),
    fc
      .record({ name: badValue, volumeId: badValue, maxPricePerHour: badValue, podPort: badValue })
      .map((pod) => JSON.stringify({ pods: [pod] })),
  ),
  { nil: null },
);

const secret = fc.string({ unit: 'binary-ascii', minLength: 8, maxLength: 40 });

const secrets = fc.record({ RUNPOD_API_KEY: secret, RIG_OPERATOR_TOKEN: secret, RIG_WAKE_TOKEN: secret });

/** The forms a secret could take in output: as read (trimmed) and JSON-escaped. */
function secretForms(value: string): string[] {
  const read = value.trim();
  return [read, JSON.stringify(read).slice(1, -1)];
}

describe('secrets never appear in warnings or errors', () => {
  it('adding the three secrets changes no warning or error text', () => {
    fc.assert(
      fc.property(publicEnv, podsText, secrets, (env, text, secretValues) => {
        expect(outputLines({ ...env, ...secretValues }, text)).toEqual(outputLines(env, text));
      }),
      { numRuns: 300 },
    );
  });

  it('no warning or error contains a secret, whatever else is wrong', () => {
    fc.assert(
      fc.property(publicEnv, podsText, secrets, (env, text, secretValues) => {
        const publicText = [...Object.values(env), text ?? '', ...outputLines(env, text)].join('\u0000');
        const forms = Object.values(secretValues).flatMap(secretForms);
        // A secret that is itself a substring of public input or of our fixed wording proves nothing.
        fc.pre(forms.every((form) => form.length >= 8 && !publicText.includes(form)));
        const lines = outputLines({ ...env, ...secretValues }, text);
        for (const form of forms) {
          for (const line of lines) expect(line).not.toContain(form);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a secret shaped like a bad guard value is still never quoted', () => {
    const env = {
      RUNPOD_API_KEY: 'rpa_1,50-secret-key',
      RIG_OPERATOR_TOKEN: 'op-token-1e3',
      RIG_WAKE_TOKEN: 'wake token with spaces',
      RUNPOD_MAX_PRICE_PER_HOUR: '1,50',
      REDIS_URL: 'nope',
    };
    const lines = [...outputLines(env, null), ...outputLines({ ...env, REDIS_URL: undefined }, null)];
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain('secret-key');
      expect(line).not.toContain('op-token');
      expect(line).not.toContain('wake token');
    }
  });
});

describe('SECRET_VARIABLES', () => {
  const secretFields: [string, (config: PodwardenConfig) => string | null][] = [
    ['RUNPOD_API_KEY', (c) => c.runpod.apiKey],
    ['RIG_OPERATOR_TOKEN', (c) => c.operatorToken],
    ['RIG_WAKE_TOKEN', (c) => c.wakeToken],
    ['RIG_INFERENCE_TOKEN', (c) => c.pods[0].inferenceToken],
  ];

  it('names exactly the variables whose values the config holds as secrets', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(secretFields.map(([name]) => name).sort());
  });

  it.each(secretFields)('%s is read into its secret field', (name, pick) => {
    const result = parseConfig({ [name]: 'not-for-logs' }, null);
    if (!result.ok) throw new Error(result.error);
    expect(pick(result.config)).toBe('not-for-logs');
  });
});
