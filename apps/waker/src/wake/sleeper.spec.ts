import { realSleep } from './sleeper';

describe('realSleep', () => {
  it('resolves once the time has passed', async () => {
    const started = performance.now();
    await realSleep(20);
    // A lower bound only: timers never fire early, however busy the machine.
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });

  it('a cancelled job ends the wait at once, failing with the cancellation', async () => {
    const job = new AbortController();
    const waiting = realSleep(60_000, job.signal);
    job.abort('operator cancelled');

    await expect(waiting).rejects.toThrow('wake cancelled: operator cancelled');
  });

  it('refuses to start waiting for a job already cancelled', async () => {
    await expect(realSleep(60_000, AbortSignal.abort('gone'))).rejects.toThrow('wake cancelled: gone');
  });

  it('lets go of the signal when the wait ends normally, so a later abort reaches no stale timer', async () => {
    const job = new AbortController();
    const added = jest.spyOn(job.signal, 'addEventListener');
    const removed = jest.spyOn(job.signal, 'removeEventListener');

    await realSleep(1, job.signal);

    expect(added).toHaveBeenCalledWith('abort', expect.any(Function), { once: true });
    expect(removed).toHaveBeenCalledWith('abort', added.mock.calls[0][1]);
  });
});
