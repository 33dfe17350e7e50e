import { spawn } from 'node:child_process';
import { STEPPED_CLOCK_PRELOAD, stepClock } from './clock-skew';

const STEP_MS = 240_000;

/**
 * A child with the preload reports its clocks once it is listening for the step, and again after it.
 * Answers both reports.
 */
async function clocksAroundStep(): Promise<Array<Record<string, number | boolean>>> {
  const script = `
    const report = () => console.log(JSON.stringify({
      now: Date.now(), newDate: new Date().getTime(), dateString: Date.parse(Date()),
      fixed: new Date(5).getTime(), isDate: new Date() instanceof Date, perf: performance.now(),
    }));
    report();
    process.once('SIGUSR2', () => setImmediate(() => { report(); process.exit(0); }));
    setTimeout(() => process.exit(2), 20000);`;
  const child = spawn(process.execPath, ['--require', STEPPED_CLOCK_PRELOAD, '-e', script], {
    env: { PATH: process.env.PATH, CLOCK_STEP_MS: String(STEP_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const reports: Array<Record<string, number | boolean>> = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      reports.push(JSON.parse(line) as Record<string, number | boolean>);
      if (reports.length === 1) stepClock(child.pid);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
  return reports;
}

describe('stepped-clock preload', () => {
  it('each SIGUSR2 steps Date.now(), new Date() and Date() forward by CLOCK_STEP_MS, nothing else', async () => {
    const before = Date.now();
    const [first, second] = await clocksAroundStep();
    const after = Date.now();
    expect(first.now as number).toBeGreaterThanOrEqual(before);
    expect(first.now as number).toBeLessThanOrEqual(after);
    for (const read of [second.now as number, second.newDate as number]) {
      expect(read).toBeGreaterThanOrEqual(before + STEP_MS);
      expect(read).toBeLessThanOrEqual(after + STEP_MS);
    }
    // Date() has whole seconds.
    expect(second.dateString as number).toBeGreaterThanOrEqual(Math.floor((before + STEP_MS) / 1000) * 1000);
    expect(second.fixed).toBe(5);
    expect(second.isDate).toBe(true);
    // The monotonic clock is not stepped.
    expect((second.perf as number) - (first.perf as number)).toBeLessThan(STEP_MS);
  });

  it('refuses to load without a positive CLOCK_STEP_MS', async () => {
    const child = spawn(process.execPath, ['--require', STEPPED_CLOCK_PRELOAD, '-e', '0'], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain('CLOCK_STEP_MS must be a positive number');
  });
});
