import { FAST_TIMINGS, resetSim, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { chatThrough } from './support/proxy-client';

/**
 * A request never wakes a pod the daily budget refuses: the cold request's
 * wake is refused by the waker's budget reservation (0.49 USD/h × the
 * 60-minute cap = 0.49 USD against a 0.25 USD budget) before any start or
 * create, and the client gets the refusal as an OpenAI-style error naming
 * what was spent, reserved and the budget. Nothing reaches RunPod but reads,
 * and the proxy asks for that one wake only.
 */
jest.setTimeout(180_000);

const BUDGET_REASON =
  /^daily budget exceeded: spent 0\.00 USD \+ reserved 0\.00 USD \+ this wake's 0\.49 USD .* would exceed DAILY_BUDGET_USD 0\.25 USD; nothing was started or created$/;

describe('inference proxy: the daily budget refuses the wake', () => {
  let stack: Stack;
  let holding: string;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'proxy-budget',
      gateway: false,
      wakers: 1,
      env: { DAILY_BUDGET_USD: '0.25', MAX_RUNTIME_MINUTES: '60' },
    });
    holding = await stack.startProxy({ PROXY_HOLD_SECONDS: '120' });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('a held cold request gets 409 wake_refused naming spent, reserved and the budget; no RunPod write', async () => {
    await resetSim(stack, { timings: FAST_TIMINGS });
    const answer = await chatThrough(holding);

    expect(answer.status).toBe(409);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({
      error: {
        type: 'wake_refused',
        code: 'wake_refused',
        message: expect.stringMatching(
          /^pod qwen could not be woken: daily budget exceeded: spent 0\.00 USD/,
        ),
      },
      pod: 'qwen',
      outcome: 'Failed',
      reason: expect.stringMatching(BUDGET_REASON),
    });
    expect(await simWrites(stack)).toEqual([]);
    // One wake, refused; the held request is not a reason to ask again.
    const wakes = stack.proxies[0].messages().filter((m) => m.startsWith('wake requested'));
    expect(wakes).toHaveLength(1);
  });
});
