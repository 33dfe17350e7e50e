import { FenceLostError, type FenceState } from '@podwarden/platform';
import type { WakeRunFence } from '../wake-run-context';

/** A fence held until the test says otherwise; every check is put on the fake's timeline. */
export class ScriptedFence implements WakeRunFence {
  readonly token = 7;
  checks = 0;
  private readonly controller = new AbortController();
  private state: FenceState = 'held';

  constructor(private readonly timeline?: { note(event: string): void }) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The gate is lost (or taken by an operator's stop) from now on. */
  lose(state: Exclude<FenceState, 'held'> = 'lost'): void {
    this.state = state;
  }

  async assertHeld(): Promise<void> {
    this.checks += 1;
    this.timeline?.note(`fence ${this.state}`);
    if (this.state !== 'held') throw new FenceLostError(this.state);
  }
}
