import type { WakePhase, WakeProgressReporter } from '../wake-progress-reporter';

export interface ReportedProgress {
  readonly phase: WakePhase;
  readonly message: string;
}

/** Keeps every progress report a wake makes. */
export class RecordingProgressReporter implements WakeProgressReporter {
  readonly reports: ReportedProgress[] = [];

  async report(phase: WakePhase, message: string): Promise<void> {
    this.reports.push({ phase, message });
  }

  /** Phases in order with consecutive repeats folded: ['lookup', 'observe', 'start', 'observe']. */
  get phases(): WakePhase[] {
    return this.reports.map((r) => r.phase).filter((phase, i, all) => i === 0 || all[i - 1] !== phase);
  }
}
