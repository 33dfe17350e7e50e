/**
 * The adaptive idle policy's fixed judgements, in one place so the idle
 * monitor and a what-if replay weigh evidence the same way.
 */

/** Older evidence counts less: an idle gap or a session day a week old weighs half. */
export const EVIDENCE_HALF_LIFE_DAYS = 7;

/** Below this many recorded idle gaps the pod keeps its fixed window. */
export const MIN_GAPS_TO_JUDGE = 30;

/**
 * A learned window may add cold starts the fixed window would not have had,
 * at most this share of the cold starts the fixed window has anyway: the
 * policy saves billed minutes, it does not make people wait noticeably more.
 */
export const EXTRA_COLD_START_SHARE = 0.02;

/**
 * What a person's minute of waiting for a cold boot is counted as, in USD.
 * At a $0.79/h GPU it weighs as much as about 7.6 billed minutes.
 */
export const WAIT_MINUTE_USD = 0.1;

/** Boot minutes assumed before the pod's own boot was measured. */
export const DEFAULT_BOOT_MINUTES = 3;

/** A pre-wake is planned only for a slot whose sessions came true at least this often. */
export const PREWAKE_MIN_HIT_RATE = 0.5;

/**
 * ...and only when the slot's hit rate beats the same-length windows just
 * before and after it by this much: a time of day, not merely busy traffic.
 */
export const PREWAKE_MIN_LIFT = 0.4;

/** ...and only when that many hits would come by chance at most this often, across the slots tried. */
export const PREWAKE_CHANCE = 0.05;

/** ...and only after the slot could have been seen on this many days of its kind. */
export const PREWAKE_MIN_DAYS = 5;

/** Session starts within this many minutes of each other are one recurring slot. */
export const SESSION_SLOT_RADIUS_MINUTES = 30;

/** How often the idle monitor (and a replay) re-learns a pod's window and pre-wake plan after new use... */
export const RHYTHM_REFRESH_MINUTES = 10;

/** ...and how often without any: older evidence weighs less as time passes. */
export const RHYTHM_IDLE_REFRESH_MINUTES = 360;
