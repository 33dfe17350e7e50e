import type Redis from 'ioredis';
import { uptimeMicros, utcDay } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';

/** One open reservation: a wake's worst case, until the pod's run is settled. */
export interface OpenReservation {
  readonly micros: number;
  readonly pricePerHour: number;
  /**
   * When it was reserved (epoch ms): the run's start when no uptime was
   * observed. Given on the caller's clock; stored on Redis's (see LedgerClock).
   */
  readonly at: number;
  /**
   * The wake that took it. A wake job re-delivered after losing its lock (a
   * Redis outage outlasting the lock) runs again under the same attempt: it
   * keeps its reservation instead of settling it as if the pod had billed.
   */
  readonly attemptId?: string;
}

export interface LedgerFigures {
  readonly spentMicros: number;
  readonly reservedMicros: number;
  /** The open runs priced by their time so far (what has likely billed already). */
  readonly accruingMicros: number;
}

export type ReserveOutcome =
  | { readonly kind: 'reserved'; readonly spentMicros: number; readonly reservedMicros: number }
  | { readonly kind: 'refused'; readonly spentMicros: number; readonly reservedMicros: number };

const DAY_KEY_TTL_SECONDS = 3 * 86_400;

/**
 * Whose clock the ledger keeps its times and its UTC day on. 'redis': every
 * time a caller passes is moved onto Redis's clock (by the caller's offset
 * from Redis, read on each call), so a waker and an idle monitor minutes apart
 * agree on when a run was reserved and on the day it counts in. 'caller':
 * the times as given (for tests that move their own clock).
 */
export type LedgerClock = 'redis' | 'caller';

// Atomic across every replica: the same attempt's reservation is kept as it
// is; an older reservation of the same pod is settled at its time so far,
// then spent + open + this one must stay within the budget.
// KEYS: open-reservations hash, today's spent counter. ARGV: pod, micros,
// budget micros (-1: no budget), reservation JSON, now, TTL, attempt ('' when none).
const RESERVE = `
local kept = nil
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local r = cjson.decode(old)
  if ARGV[7] ~= '' and r.attemptId == ARGV[7] then
    kept = r.micros
  else
    local used = math.floor(r.pricePerHour * (tonumber(ARGV[5]) - r.at) * 1000000 / 3600000 + 0.5)
    if used > r.micros then used = r.micros end
    if used > 0 then redis.call('INCRBY', KEYS[2], used) end
    redis.call('HDEL', KEYS[1], ARGV[1])
  end
end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
local reserved = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do reserved = reserved + cjson.decode(v).micros end
if kept then return {1, spent, reserved - kept} end
local budget = tonumber(ARGV[3])
if budget >= 0 and spent + reserved + tonumber(ARGV[2]) > budget then return {0, spent, reserved} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('INCRBY', KEYS[2], 0)
redis.call('EXPIRE', KEYS[2], ARGV[6])
return {1, spent, reserved}`;

// KEYS: open-reservations hash, today's spent counter. ARGV: pod, settled micros. Idempotent.
const SETTLE = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('INCRBY', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * The daily-budget ledger every replica shares in Redis: today's settled
 * spend (a counter per UTC day) and one open reservation per pod name (the
 * wake gate runs one wake per volume). Reading or writing it may throw: the
 * caller decides what an unreadable ledger means (a wake refuses).
 */
export class BudgetLedger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: LedgerClock = 'redis',
  ) {}

  async reserve(
    podName: string,
    reservation: OpenReservation,
    budgetMicros: number | null,
  ): Promise<ReserveOutcome> {
    const at = reservation.at + (await this.offsetFrom(reservation.at));
    const answer = (await this.redis.eval(
      RESERVE,
      2,
      this.keys.budgetOpen(),
      this.keys.budgetSpent(utcDay(at)),
      podName.toLowerCase(),
      String(reservation.micros),
      String(budgetMicros ?? -1),
      JSON.stringify({ ...reservation, at }),
      String(at),
      String(DAY_KEY_TTL_SECONDS),
      reservation.attemptId ?? '',
    )) as [number, number, number];
    const [ok, spentMicros, reservedMicros] = answer.map(Number);
    return { kind: ok === 1 ? 'reserved' : 'refused', spentMicros, reservedMicros };
  }

  /**
   * Ends a pod's run: its reservation becomes price × observed uptime (from
   * `upSince`, or from the reservation when no uptime was observed). Returns
   * the settled micro-dollars, or null when nothing was open. `upSince` and
   * `now` are on the caller's clock.
   */
  async settle(podName: string, upSince: number | null, now: number): Promise<number | null> {
    // One field, not the whole hash: every tick settles every pod seen down, most with nothing open.
    const raw = await this.redis.hget(this.keys.budgetOpen(), podName.toLowerCase());
    if (raw === null) return null;
    const reservation = JSON.parse(raw) as OpenReservation;
    const offset = await this.offsetFrom(now);
    // The reservation on the caller's clock: compared with its upSince, not with the waker's clock.
    const reservedAt = reservation.at - offset;
    const from = upSince !== null && upSince >= reservedAt ? upSince : reservedAt;
    const micros = uptimeMicros(reservation.pricePerHour, from, now);
    const settled = await this.redis.eval(
      SETTLE,
      2,
      this.keys.budgetOpen(),
      this.keys.budgetSpent(utcDay(now + offset)),
      podName.toLowerCase(),
      String(micros),
      String(DAY_KEY_TTL_SECONDS),
    );
    return Number(settled) === 1 ? micros : null;
  }

  async figures(now: number): Promise<LedgerFigures> {
    const offset = await this.offsetFrom(now);
    const [spent, open] = await Promise.all([
      this.redis.get(this.keys.budgetSpent(utcDay(now + offset))),
      this.open(),
    ]);
    let reservedMicros = 0;
    let accruingMicros = 0;
    for (const reservation of open.values()) {
      reservedMicros += reservation.micros;
      accruingMicros += Math.min(
        reservation.micros,
        uptimeMicros(reservation.pricePerHour, reservation.at - offset, now),
      );
    }
    return { spentMicros: Number(spent ?? 0), reservedMicros, accruingMicros };
  }

  /** Redis's clock minus the caller's (`callerNow`); 0 when the caller's clock is kept. */
  private async offsetFrom(callerNow: number): Promise<number> {
    if (this.clock === 'caller') return 0;
    const [seconds, micros] = await this.redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - callerNow;
  }

  private async open(): Promise<Map<string, OpenReservation>> {
    const raw = await this.redis.hgetall(this.keys.budgetOpen());
    return new Map(Object.entries(raw).map(([pod, json]) => [pod, JSON.parse(json) as OpenReservation]));
  }
}
