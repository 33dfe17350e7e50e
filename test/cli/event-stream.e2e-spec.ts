import { iso, runningBody, statusBody, T0 } from '../../apps/cli/src/testing/status-bodies';
import { eventually } from '../support/app-process';
import { cliEnv } from './support/cli-env';
import { CliProcess, expectOneDocument } from './support/cli-process';
import { FrontGateway, sendJson } from './support/front-gateway';

/**
 * The CLI's side of the event stream (GET /api/pods/{name}/events) against a
 * scripted front, with the start and status answers the test decides: id,
 * event, data lines; Last-Event-ID on reconnect; polling when the route does
 * not stream. The real route is exercised in cli-commands and start-wait.
 */
const EVENTS = /^\/api\/pods\/qwen\/events$/;
const STATUS = '/api/pods/qwen';
/** The status the scripted gateway answers: wake a1 in flight and its pod starting, or pod1 ready since 3 min after the request. */
function status(ready: boolean): Record<string, unknown> {
  return ready
    ? runningBody(180_000)
    : statusBody({
        status: 'STARTING',
        podId: 'pod1',
        podsOnVolume: 1,
        wake: { attemptId: 'a1', phase: 'observe', message: 'polling', updatedAt: iso(T0) },
      });
}

describe('the CLI on the event stream', () => {
  let front: FrontGateway;
  let ready: boolean;

  beforeEach(async () => {
    ready = false;
    front = await FrontGateway.start(null);
    front.route('POST', /^\/api\/pods\/qwen\/start$/, (_request, response) =>
      sendJson(response, 202, {
        name: 'qwen',
        outcome: 'Waiting',
        attemptId: 'a1',
        podId: null,
        message: 'wake in flight',
      }),
    );
    front.route('GET', /^\/api\/pods\/qwen$/, (_request, response) => sendJson(response, 200, status(ready)));
  });
  afterEach(async () => {
    await front.stop();
  });

  const statusReads = () => front.seen('GET', STATUS).length;
  const until = (what: string, check: () => boolean) =>
    eventually(async () => (check() ? true : undefined), 30_000, what, 20);

  it('start --wait reads the status on each event (not on a timer), and reconnects with Last-Event-ID', async () => {
    front.eventStream(EVENTS);
    const cli = new CliProcess(['start', 'qwen', '--wait'], cliEnv(front.url));
    await cli.waitForStderr('following the event stream');
    await until('the first status read', () => statusReads() >= 1);

    const beforeEvent = statusReads();
    front.send('1', 'phase', { phase: 'Booting' });
    await until('a status read after the event', () => statusReads() > beforeEvent);

    front.dropStreams();
    await until('a reconnect with Last-Event-ID', () =>
      front.seen('GET', EVENTS).some((r) => r.lastEventId === '1'),
    );
    // Events may have been missed while disconnected: a reconnect makes one read due.
    const readsAfterReconnect = () => {
      const log = front.all();
      const reconnect = log.findIndex((r) => EVENTS.test(r.path) && r.lastEventId === '1');
      return log.slice(reconnect + 1).filter((r) => r.method === 'GET' && r.path === STATUS).length;
    };
    await until('the status read after the reconnect', () => readsAfterReconnect() >= 1);

    const quiet = statusReads();
    // Over 5 s a client polling every 2 s would read at least twice. One read
    // may still land: while the stream was down the wait polled, and a poll
    // that fired just as the stream reopened precedes the reconnect's own read.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(statusReads() - quiet).toBeLessThanOrEqual(1);
    expect(cli.running).toBe(true);

    ready = true;
    front.send('2', 'phase', { phase: 'Ready' });
    const result = await cli.result();
    expect(result.code).toBe(0);
    expectOneDocument(result);
    expect(result.json).toMatchObject({ podId: 'pod1', readySince: iso(T0 + 180_000) });
    expect(front.seen('GET', EVENTS).every((r) => r.accept === 'text/event-stream')).toBe(true);
  });

  it('falls back to polling GET when the route does not stream (a proxy that strips server-sent events)', async () => {
    front.route('GET', EVENTS, (_request, response) => sendJson(response, 200, { buffered: true }));
    const cli = new CliProcess(['start', 'qwen', '--wait'], cliEnv(front.url));
    await cli.waitForStderr('no event stream (HTTP 200 application/json)');
    await until('two status reads', () => statusReads() >= 2);
    ready = true;
    const result = await cli.result();
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ podId: 'pod1' });
  });

  it('events prints one JSON object per event line, reconnects with Last-Event-ID, and ends on Ctrl-C with exit 0', async () => {
    front.eventStream(EVENTS);
    const cli = new CliProcess(['events', 'qwen'], cliEnv(front.url));
    await cli.waitForStderr('following the event stream');
    front.send('1', 'phase', { phase: 'Booting' });
    front.send('2', 'wake', { attemptId: 'a1', phase: 'create' });
    await until('two lines', () => cli.stdout.split('\n').length > 2);
    front.dropStreams();
    await until('a reconnect with Last-Event-ID 2', () =>
      front.seen('GET', EVENTS).some((r) => r.lastEventId === '2'),
    );
    await until('the stream open again', () => front.openStreams === 1);
    front.send('3', 'stop', { trigger: 'idle' });
    await until('three lines', () => cli.stdout.split('\n').length > 3);
    cli.interrupt();
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { id: '1', event: 'phase', data: { phase: 'Booting' } },
      { id: '2', event: 'wake', data: { attemptId: 'a1', phase: 'create' } },
      { id: '3', event: 'stop', data: { trigger: 'idle' } },
    ]);
    expect(result.stderr).toContain('reconnect');
  });

  it('events: a route that does not stream is unreachable, a refused token unauthorized', async () => {
    front.route('GET', EVENTS, (_request, response) => sendJson(response, 200, { buffered: true }));
    const stripped = await new CliProcess(['events', 'qwen'], cliEnv(front.url)).result();
    expect(stripped.code).toBe(7);
    expect(stripped.json).toMatchObject({ code: 'unreachable', message: expect.stringContaining('strip') });

    front.route('GET', EVENTS, (_request, response) =>
      sendJson(response, 401, {
        type: 'urn:podwarden:problem:unauthorized',
        title: 'Unauthorized',
        status: 401,
        detail: 'no',
      }),
    );
    const refused = await new CliProcess(['events', 'qwen'], cliEnv(front.url)).result();
    expect(refused.code).toBe(3);
    expect(refused.json).toMatchObject({ code: 'unauthorized' });
  });
});
