import { INITIAL_IDLE_STATE, type IdleAdvance, type IdleState } from '@podwarden/policies';
import { EMPTY_IDLE_RECORD, type IdleRecord } from '@podwarden/platform';
import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { logReadiness, logTick, warnManyPods } from './tick-log';
import type { PodReading } from './volume-observation';

const POD = testConfig({ RUNPOD_BOOT_GRACE_MINUTES: '10' }).pods[0];
const NOW = Date.parse('2026-12-01T12:00:00Z');

function reading(podId: string, signal: PodReading['signal']): PodReading {
  return { podId, scrape: null, observation: null, signal };
}

function advance(fields: Partial<IdleAdvance> = {}, state: Partial<IdleState> = {}): IdleAdvance {
  return {
    state: { ...INITIAL_IDLE_STATE, ...state },
    stop: null,
    becameReady: false,
    startupAfterReady: false,
    ...fields,
  };
}

describe('warnManyPods', () => {
  it.each<[number]>([[0], [1]])('%i pod(s) on the volume: no line', (count) => {
    const logs = captureLogs();
    warnManyPods(logs.logger, POD, [reading('p1', 'Idle'), reading('p2', 'Busy')].slice(0, count));
    expect(logs.lines).toEqual([]);
  });

  it('two pods or more: one Warning naming each pod and its signal, in order', () => {
    const logs = captureLogs();
    warnManyPods(logs.logger, POD, [reading('old', 'UnreachableButRunning'), reading('new', 'Booting')]);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: POD.name,
        podIds: ['old', 'new'],
        signals: ['UnreachableButRunning', 'Booting'],
        msg: `2 pods on volume ${POD.volumeId}; a stale pod and its replacement may both be billing`,
      }),
    ]);
  });
});

describe('logReadiness', () => {
  it('nothing happened: no line', () => {
    const logs = captureLogs();
    logReadiness(logs.logger, POD, advance(), 'p1');
    expect(logs.lines).toEqual([]);
  });

  it('ready: one Information line with the time to ready and the boot grace, in ms and as text', () => {
    const logs = captureLogs();
    const state = { phase: 'Ready' as const, bootStartedAt: NOW - 65_000, readySince: NOW };
    logReadiness(logs.logger, POD, advance({ becameReady: true }, state), 'p1');
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: POD.name,
        podId: 'p1',
        readyAfterMs: 65_000,
        bootGraceMinutes: 10,
        msg: '[idle-monitor] pod p1 ready after 1m05s (boot grace 10m00s)',
      }),
    ]);
  });

  it('ready with no boot start seen: the time to ready is unknown', () => {
    const logs = captureLogs();
    logReadiness(logs.logger, POD, advance({ becameReady: true }, { readySince: NOW }), null);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        podId: null,
        readyAfterMs: null,
        msg: '[idle-monitor] pod null ready after unknown (boot grace 10m00s)',
      }),
    ]);
  });

  it('a startup after ready: one Information line that readiness was cleared', () => {
    const logs = captureLogs();
    logReadiness(logs.logger, POD, advance({ startupAfterReady: true }), 'p1');
    expect(logs.lines).toEqual([
      {
        level: LEVEL.info,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        pod: POD.name,
        podId: 'p1',
        msg: 'pod p1 is starting again; readiness cleared',
      },
    ]);
  });

  it('both on one tick: the ready line, then the restart line', () => {
    const logs = captureLogs();
    logReadiness(logs.logger, POD, advance({ becameReady: true, startupAfterReady: true }), 'p1');
    expect(logs.lines.map((l) => l.msg)).toEqual([
      '[idle-monitor] pod p1 ready after unknown (boot grace 10m00s)',
      'pod p1 is starting again; readiness cleared',
    ]);
  });
});

describe('logTick', () => {
  const record: IdleRecord = {
    ...EMPTY_IDLE_RECORD,
    state: { ...INITIAL_IDLE_STATE, phase: 'Ready', idleStreak: 0, bootingTicks: 0 },
  };

  it("a tick without a stop: one Debug line 'idle tick' with what was observed and left behind, no stop fields", () => {
    const logs = captureLogs();
    const left: IdleRecord = { ...record, state: { ...record.state, idleStreak: 4, bootingTicks: 2 } };
    logTick(logs.logger, {
      pod: POD,
      tickId: 't-1',
      aggregate: { signal: 'Idle', podId: 'p1' },
      advance: advance({}, { idleStreak: 9 }),
      record: left,
      stopAccepted: null,
    });
    expect(logs.lines).toEqual([
      {
        level: LEVEL.debug,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        pod: POD.name,
        tickId: 't-1',
        signal: 'Idle',
        phase: 'Ready',
        idleStreak: 4,
        bootingTicks: 2,
        msg: 'idle tick',
      },
    ]);
  });

  it.each<[boolean | null]>([[true], [false], [null]])(
    'a tick with a stop (accepted: %s) also carries the stop, its answer and the counters that fired it',
    (stopAccepted) => {
      const logs = captureLogs();
      logTick(logs.logger, {
        pod: POD,
        tickId: 't-2',
        aggregate: { signal: 'Idle', podId: 'p1' },
        advance: advance({ stop: 'idle' }, { idleStreak: 10, bootingTicks: 3 }),
        record,
        stopAccepted,
      });
      expect(logs.lines).toEqual([
        expect.objectContaining({
          level: LEVEL.debug,
          tickId: 't-2',
          idleStreak: 0,
          bootingTicks: 0,
          stop: 'idle',
          stopAccepted,
          streakAtStop: 10,
          bootingTicksAtStop: 3,
          msg: 'idle tick',
        }),
      ]);
    },
  );
});
