import { captureLogs, useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { ActionLog } from './action-log';
import { CREATE_ROW } from './testing/create-row';
import { BillableIntents, type BillableIntent } from './billable-intents';
import { writeRecord, type RecordWrite } from './record-script';

// A hash-tagged prefix, as on Redis Cluster: the script's keys must all live under it.
const db = useTestRedis('record-script', { hashTagged: true });
const KEYS = new RedisKeys(db.prefix);

const ROW = CREATE_ROW;
const INTENT: BillableIntent = {
  id: 'intent-1',
  at: ROW.at,
  podName: 'qwen',
  action: 'Create',
  podId: null,
  gpuId: ROW.gpuId,
  pricePerHour: ROW.pricePerHour,
  requestName: 'podwarden-qwen-1',
  attemptId: 'a1',
  fenceToken: 1,
  answeredStatus: null,
};

function setup() {
  const actions = new ActionLog(db.redis, KEYS, captureLogs().logger);
  const intents = new BillableIntents(db.redis, KEYS);
  const rows = async () => (await actions.recent('qwen', 100)).reverse();
  return { actions, intents, rows };
}

describe('the record script: a billable row and its intent in one atomic write', () => {
  it('claim: the answer and a reconcile of the same intent write exactly one row, whichever comes first', async () => {
    const { actions, intents, rows } = setup();
    await intents.begin(INTENT);

    const answer = await actions.record(ROW, { mode: 'claim', intent: INTENT });
    const reconcile = await actions.record(
      { ...ROW, detail: 'reconciled' },
      { mode: 'claim', intent: INTENT },
    );

    expect([answer, reconcile]).toEqual(['recorded', 'claimed-elsewhere']);
    expect(await rows()).toEqual([ROW]);
    expect(await intents.open('qwen')).toEqual([]);
  });

  it('claim of an intent Redis lost (restarted empty) still records the answer', async () => {
    const { actions, rows } = setup();

    expect(await actions.record(ROW, { mode: 'claim', intent: INTENT })).toBe('recorded');
    expect(await rows()).toEqual([ROW]);
  });

  it('in-doubt keeps the intent open with its answer; a later claim records the settlement, then no other', async () => {
    const { actions, intents, rows } = setup();
    await intents.begin(INTENT);
    const timeout = { ...ROW, podId: null, httpStatus: 504, ok: false };

    expect(await actions.record(timeout, { mode: 'in-doubt', intent: INTENT, answeredStatus: 504 })).toBe(
      'recorded',
    );
    expect(await intents.open('qwen')).toEqual([{ ...INTENT, answeredStatus: 504 }]);
    expect(await actions.record(ROW, { mode: 'claim', intent: INTENT })).toBe('recorded');
    expect(await actions.record(timeout, { mode: 'in-doubt', intent: INTENT, answeredStatus: 504 })).toBe(
      'claimed-elsewhere',
    );

    expect(await rows()).toEqual([timeout, ROW]);
    expect(await intents.open('qwen')).toEqual([]);
  });

  it('an intent settled without a row refuses a later claim', async () => {
    const { actions, intents, rows } = setup();
    await intents.begin(INTENT);
    await intents.settle('qwen', INTENT.id);

    expect(await actions.record(ROW, { mode: 'claim', intent: INTENT })).toBe('claimed-elsewhere');
    expect(await rows()).toEqual([]);
  });

  it('the same record written twice (a retry after a lost answer) is appended once', async () => {
    const { rows } = setup();
    const write: RecordWrite = {
      streamKey: KEYS.actionLog('qwen'),
      writtenKey: KEYS.recordWritten('r-1'),
      entryJson: JSON.stringify(ROW),
      intent: {
        mode: 'claim',
        hashKey: KEYS.billableIntents('qwen'),
        closedKey: KEYS.intentClosed(INTENT.id),
        id: INTENT.id,
      },
    };

    expect(await writeRecord(db.redis, write)).toBe('recorded');
    expect(await writeRecord(db.redis, write)).toBe('dup');
    expect(await rows()).toEqual([ROW]);
  });

  it('writes only keys under the configured prefix, markers with a TTL', async () => {
    const { actions, intents } = setup();
    await intents.begin(INTENT);
    await actions.record(ROW, { mode: 'claim', intent: INTENT });

    const keys = await db.redis.keys(`${db.prefix.replace(/[{}]/g, '\\$&')}:*`);
    expect(keys.map((k) => k.slice(db.prefix.length + 1).split(':')[0]).sort()).toEqual([
      'actions',
      'intent-closed',
      'record-written',
    ]);
    for (const key of keys.filter((k) => !k.includes(':actions:')))
      expect(await db.redis.ttl(key)).toBeGreaterThan(3600);
  });
});
