import type { GatewayAnswer } from '../gateway/gateway-answer';
import { ProgressReporter } from '../output/progress-reporter';
import { terminalStyle } from '../output/terminal-style';
import { FakeClock } from '../testing/fake-clock';
import { badGateway, down, ok, problemAnswer, ScriptedAnswers } from '../testing/scripted-gateway';
import { POLL_INTERVAL_MS } from './change-feed';
import { requestWake } from './wake-request';
import { WaitTracker } from './wait-tracker';

type Scripted = GatewayAnswer | ((signal: AbortSignal) => Promise<GatewayAnswer>);

function harness(...answers: Scripted[]) {
  const clock = new FakeClock();
  const script = new ScriptedAnswers(clock, ...answers);
  const lines: string[] = [];
  const interrupt = new AbortController();
  const progress = new ProgressReporter((line) => lines.push(line), clock, terminalStyle(false), 'qwen', {
    minGapMs: 0,
    heartbeatMs: 0,
  });
  const run = (timeoutMs = 600_000) =>
    clock.drive(
      requestWake(
        { clock, postStart: script.answer, progress, interrupt: interrupt.signal },
        { deadline: clock.now() + timeoutMs, timeoutMs },
        new WaitTracker('qwen'),
      ),
    );
  return { clock, script, lines, interrupt, run };
}

/** A start request the gateway never answers: it ends only when its signal aborts. */
const hangs = (signal: AbortSignal): Promise<GatewayAnswer> =>
  new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
  );

const waiting = ok({ name: 'qwen', outcome: 'Waiting', attemptId: 'a1', podId: null, message: 'm' }, 202);

describe(requestWake.name, () => {
  it('returns the start answer (202 Waiting: the wake carries on)', async () => {
    const { run } = harness(waiting);
    await expect(run()).resolves.toEqual({ outcome: 'Waiting', attemptId: 'a1', podId: null });
  });

  it('asks again after a network error, a 5xx or an unreadable answer (a start joins the wake in flight)', async () => {
    const { run, script, lines } = harness(down(), badGateway(), ok({ outcome: 'Maybe' }), waiting);
    await expect(run()).resolves.toMatchObject({ attemptId: 'a1' });
    expect(script.calls.map((at) => at - script.calls[0])).toEqual(
      [0, 1, 2, 3].map((i) => i * POLL_INTERVAL_MS),
    );
    expect(lines.join('')).toContain('asking again');
  });

  it.each([
    [
      'a refused wake (409, failureKind refused)',
      problemAnswer(409, { outcome: 'Failed', failureKind: 'refused', attemptId: 'a1' }),
      'refused',
    ],
    [
      'a failed wake (409)',
      problemAnswer(409, { outcome: 'Failed', failureKind: 'provider', attemptId: 'a1' }),
      'failed',
    ],
    ['a wrong token', problemAnswer(401), 'unauthorized'],
    ['an unknown pod', problemAnswer(404), 'not_found'],
  ])('%s ends it at once, with the attemptId as data', async (_what, answer, code) => {
    const { run, script } = harness(answer);
    const error = await run().catch((e: unknown) => e);
    expect(error).toMatchObject({ code, fields: { name: 'qwen' } });
    if (code === 'refused' || code === 'failed') expect(error).toMatchObject({ fields: { attemptId: 'a1' } });
    expect(script.calls).toHaveLength(1);
  });

  it('a gateway that never answers usefully ends with wait_timeout at the deadline', async () => {
    const { run, clock } = harness(down());
    const started = clock.now();
    await expect(run(10_000)).rejects.toMatchObject({ code: 'wait_timeout', fields: { attemptId: null } });
    expect(clock.now() - started).toBe(10_000);
  });

  it('a start request still unanswered at the deadline is cut there: wait_timeout saying a wake may be in flight', async () => {
    const { run, clock } = harness(hangs);
    const started = clock.now();
    await expect(run(30_000)).rejects.toMatchObject({
      code: 'wait_timeout',
      message: expect.stringContaining('a wake may be in flight'),
    });
    expect(clock.now() - started).toBe(30_000);
  });

  it('Ctrl-C aborts the request in flight and rethrows', async () => {
    const { run, interrupt } = harness((signal) => {
      setImmediate(() => interrupt.abort());
      return hangs(signal);
    });
    await expect(run()).rejects.toThrow('aborted');
  });
});
