import type { Clock } from '../time/clock';
import { formatDuration } from '../time/duration';
import {
  DEFAULT_PROGRESS_CADENCE,
  progressDue,
  type LastProgress,
  type ProgressCadence,
} from './progress-throttle';
import type { TerminalStyle } from './terminal-style';

/**
 * Progress for people, on stderr only, so stdout stays one JSON document.
 * Lines carry the time waited so far; repeats are throttled.
 */
export class ProgressReporter {
  private last: LastProgress | null = null;
  private readonly startedAt: number;

  constructor(
    private readonly write: (line: string) => void,
    private readonly clock: Clock,
    private readonly style: TerminalStyle,
    private readonly subject: string,
    private readonly cadence: ProgressCadence = DEFAULT_PROGRESS_CADENCE,
  ) {
    this.startedAt = clock.now();
  }

  /** The wait's current state; written when due (see progressDue). */
  update(text: string, limitMs?: number): void {
    const now = this.clock.now();
    if (!progressDue(this.last, text, now, this.cadence)) return;
    this.last = { text, at: now };
    const elapsed = formatDuration(now - this.startedAt);
    const budget = limitMs === undefined ? elapsed : `${elapsed} of ${formatDuration(limitMs)}`;
    this.write(`${this.style.dim(`podwarden ${this.subject} [${budget}]`)} ${text}\n`);
  }

  /** Something a person should see once (a fallback, a reconnect); never throttled away. */
  note(text: string): void {
    this.write(`${this.style.dim(`podwarden ${this.subject}`)} ${this.style.warn(text)}\n`);
  }
}
