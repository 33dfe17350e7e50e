import type Redis from 'ioredis';
import { uptimeMicros, utcDay } from '@podwarden/policies';
import type { SharedClock } from '../redis/redis-clock';
import type { RedisKeys } from '../redis/redis-keys';
import { MicroBatch } from '../concurrency/micro-batch';
import { readStoredOrThrow } from '../redis/stored-json';
import { reserveWithinBudget, settleReservationOnce } from './scripts/budget-scripts';
import { openReservationSchema } from './open-reservation.schema';

/** One open reservation: a wake's worst case, until the pod's run is settled. */
export interface OpenReservation {
  readonly micros: number;
  readonly pricePerHour: number;
  /**
   * When it was reserved (epoch ms): the run's start when no uptime was
   * observed. Given on the caller's clock; stored on the shared clock.
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

/** The ledger's figures at the reservation; `spentMicros` is what the ledger settled (not the judged spend). */
export interface ReserveFigures {
  readonly spentMicros: number;
  readonly reservedMicros: number;
  /** The open runs at price × time so far (part of `reservedMicros`). */
  readonly accruingMicros: number;
  /** RunPod's billing today as last reconciled; null when none was recorded today. */
  readonly providerMicros: number | null;
}

export type ReserveOutcome =
  ({ readonly kind: 'reserved' } & ReserveFigures) | ({ readonly kind: 'refused' } & ReserveFigures);

const DAY_KEY_TTL_SECONDS = 3 * 86_400;

/**
 * The shared daily-budget ledger: today's settled spend and one open reservation per pod. It may throw:
 * the caller decides (a wake refuses). Times and the UTC day are Redis's clock, every caller's time moved
 * onto it by its offset, so replicas minutes apart agree on a run's reservation and on its day.
 */
export class BudgetLedger {
  // Every pod a tick sees down asks for its reservation at once: one HMGET per batch.
  private readonly openFields = new MicroBatch((pods: readonly string[]) =>
    this.redis.hmget(this.keys.budgetOpen(), ...pods),
  );

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: SharedClock,
  ) {}

  async reserve(
    podName: string,
    reservation: OpenReservation,
    budgetMicros: number | null,
  ): Promise<ReserveOutcome> {
    const at = reservation.at + (await this.offsetFrom(reservation.at));
    const answer = await reserveWithinBudget(
      this.redis,
      [this.keys.budgetOpen(), this.keys.budgetSpent(utcDay(at)), this.keys.budgetProvider(utcDay(at))],
      [
        podName.toLowerCase(),
        String(reservation.micros),
        String(budgetMicros ?? -1),
        JSON.stringify({ ...reservation, at }),
        String(at),
        String(DAY_KEY_TTL_SECONDS),
        reservation.attemptId ?? '',
      ],
    );
    const [ok, spentMicros, reservedMicros, accruingMicros, provider] = answer.map(Number);
    const providerMicros = provider < 0 ? null : provider;
    return {
      kind: ok === 1 ? 'reserved' : 'refused',
      spentMicros,
      reservedMicros,
      accruingMicros,
      providerMicros,
    };
  }

  /**
   * Ends a pod's run: its reservation becomes price × observed uptime (from `upSince`, else the reservation).
   * Answers the settled micro-dollars, or null when nothing was open. Times are on the caller's clock.
   * Throws on an unreadable reservation: it is never settled as nothing, it stays open at its worst case.
   */
  async settle(podName: string, upSince: number | null, now: number): Promise<number | null> {
    // One field, not the whole hash: every tick settles every pod seen down, most with nothing open.
    const raw = await this.openFields.call(podName.toLowerCase());
    if (raw === null) return null;
    const reservation = readStoredOrThrow(openReservationSchema, raw, `budget reservation of ${podName}`);
    const offset = await this.offsetFrom(now);
    // The reservation on the caller's clock: compared with its upSince, not with the waker's clock.
    const reservedAt = reservation.at - offset;
    const from = upSince !== null && upSince >= reservedAt ? upSince : reservedAt;
    const micros = uptimeMicros(reservation.pricePerHour, from, now);
    const settled = await settleReservationOnce(
      this.redis,
      [this.keys.budgetOpen(), this.keys.budgetSpent(utcDay(now + offset))],
      [podName.toLowerCase(), String(micros), String(DAY_KEY_TTL_SECONDS)],
    );
    return Number(settled) === 1 ? micros : null;
  }

  /** Throws on an unreadable reservation: the figures never read it as "no reservation". */
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

  /** The shared clock minus the caller's (`callerNow`). */
  private async offsetFrom(callerNow: number): Promise<number> {
    return (await this.clock.now()) - callerNow;
  }

  private async open(): Promise<Map<string, OpenReservation>> {
    const raw = await this.redis.hgetall(this.keys.budgetOpen());
    return new Map(
      Object.entries(raw).map(([pod, json]) => [
        pod,
        readStoredOrThrow(openReservationSchema, json, `budget reservation of ${pod}`),
      ]),
    );
  }
}
