import { ProgressReporter } from '../output/progress-reporter';
import { terminalStyle } from '../output/terminal-style';
import { FakeClock } from '../testing/fake-clock';
import { badGateway, down, ok, problemAnswer, ScriptedAnswers } from '../testing/scripted-gateway';
import { lastWake, runningBody, statusBody } from '../testing/status-bodies';
import { httpAnswer } from '../gateway/gateway-answer';
import type { StartAnswer } from '../gateway/start-answer';
import { PollingFeed, POLL_INTERVAL_MS } from './change-feed';
import { waitUntilReady } from './ready-wait';
import { WaitTracker } from './wait-tracker';

const created: StartAnswer = { outcome: 'Created', attemptId: 'a1', podId: 'pod1' };
const loading = ok(runningBody(null));
const ready = ok(runningBody(90_000));
const stopped = ok(runningBody(null, { status: 'EXITED', isRunning: false }));

function harness(
  ...answers: ConstructorParameters<typeof ScriptedAnswers> extends [unknown, ...infer A] ? A : never
) {
  const clock = new FakeClock();
  const script = new ScriptedAnswers(clock, ...answers);
  const lines: string[] = [];
  const interrupt = new AbortController();
  const tracker = new WaitTracker('qwen');
  const deps = {
    clock,
    readStatus: script.answer,
    feed: new PollingFeed(clock),
    progress: new ProgressReporter((line) => lines.push(line), clock, terminalStyle(false), 'qwen', {
      minGapMs: 0,
      heartbeatMs: 0,
    }),
    interrupt: interrupt.signal,
  };
  const run = (timeoutMs = 600_000, start: StartAnswer = created) =>
    clock.drive(waitUntilReady(deps, start, { deadline: clock.now() + timeoutMs, timeoutMs }, tracker));
  return { clock, script, lines, interrupt, tracker, run };
}

describe(waitUntilReady.name, () => {
  it('returns only when readySince is set, not when the pod is RUNNING', async () => {
    const { script, run, lines } = harness(loading, loading, ready);
    const status = await run();
    expect(status.readySince).not.toBeNull();
    expect(script.calls).toHaveLength(3);
    expect(script.calls[1] - script.calls[0]).toBe(POLL_INTERVAL_MS);
    expect(lines.join('')).toContain('RUNNING, model loading');
  });

  it('network errors, 5xx and unreadable answers do not end the wait', async () => {
    const { script, run, lines } = harness(
      loading,
      down(),
      badGateway(),
      problemAnswer(503),
      httpAnswer(200, undefined, 'text/html'),
      ok({ half: 'a status' }),
      ready,
    );
    await expect(run()).resolves.toMatchObject({ podId: 'pod1' });
    expect(script.calls).toHaveLength(7);
    expect(lines.join('')).toContain('ECONNREFUSED');
  });

  it('times out with wait_timeout carrying the ids and the last status; the pod is not touched', async () => {
    const { script, run } = harness(loading);
    const error = await run(10_000).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'wait_timeout',
      fields: {
        name: 'qwen',
        attemptId: 'a1',
        podId: 'pod1',
        lastStatus: expect.objectContaining({ status: 'RUNNING' }),
      },
    });
    // Reads at 0, 2, 4, 6, 8 and 10 s: the last one at the deadline itself.
    expect(script.calls.map((at) => at - script.calls[0])).toEqual([0, 2_000, 4_000, 6_000, 8_000, 10_000]);
  });

  it('a read that succeeds at the deadline is a success, not a timeout', async () => {
    const { script, run } = harness(loading, loading, loading, loading, loading, ready);
    await expect(run(10_000)).resolves.toMatchObject({ podId: 'pod1' });
    expect(script.calls.at(-1)! - script.calls[0]).toBe(10_000);
  });

  it.each([
    ['401', problemAnswer(401), 'unauthorized'],
    ['403', problemAnswer(403), 'unauthorized'],
  ])('%s ends the wait at once with the ids', async (_what, answer, code) => {
    const { run, script } = harness(loading, answer);
    await expect(run()).rejects.toMatchObject({ code, fields: { attemptId: 'a1', podId: 'pod1' } });
    expect(script.calls).toHaveLength(2);
  });

  it('one 404 is read again; two in a row end with not_found', async () => {
    const once = harness(problemAnswer(404), ready);
    await expect(once.run()).resolves.toMatchObject({ podId: 'pod1' });
    const twice = harness(problemAnswer(404), problemAnswer(404), ready);
    await expect(twice.run()).rejects.toMatchObject({ code: 'not_found', fields: { attemptId: 'a1' } });
  });

  it('a 404, a blip, and a 404 are not "two in a row"', async () => {
    const { run } = harness(problemAnswer(404), down(), problemAnswer(404), ready);
    await expect(run()).resolves.toMatchObject({ podId: 'pod1' });
  });

  it('a wake that ends Failed (read from GET after a 202) ends the wait with its ids', async () => {
    const failed = ok(
      statusBody({
        lastWake: lastWake({ outcome: 'Failed', wakeOutcome: 'Failed', podId: 'pod9', reason: 'boom' }),
      }),
    );
    const { run } = harness(ok(statusBody()), failed);
    await expect(run(600_000, { outcome: 'Waiting', attemptId: 'a1', podId: null })).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringContaining('boom'),
      fields: { reason: 'wake-failed', attemptId: 'a1', podId: 'pod9' },
    });
  });

  it('a pod that stopped ends the wait after two reads in a row, naming it', async () => {
    const { run, script } = harness(loading, stopped, stopped);
    await expect(run()).rejects.toMatchObject({
      code: 'failed',
      fields: { reason: 'pod-stopped', podId: 'pod1' },
    });
    expect(script.calls).toHaveLength(3);
  });

  it('a stopped read, a blip, a stopped read: still waiting', async () => {
    const { run } = harness(stopped, badGateway(), stopped, ready);
    await expect(run()).resolves.toMatchObject({ podId: 'pod1' });
  });

  it('Ctrl-C ends the wait at once: no further read', async () => {
    const { run, script, interrupt } = harness(loading, async () => {
      interrupt.abort();
      return loading;
    });
    await expect(run()).rejects.toThrow('interrupted');
    expect(script.calls).toHaveLength(2);
  });
});
