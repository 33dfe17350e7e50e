import type { ActionLog, ActionRecord, AppendOutcome, IntentClosing } from '@podwarden/platform';
import { MemoryIntents } from './memory-intents';

/** Keeps every billable-action entry the wake writes, in order, closing intents in the same step as ActionLog does. */
export class RecordingActionLog implements Pick<ActionLog, 'record'> {
  readonly entries: ActionRecord[] = [];

  constructor(
    private readonly timeline?: { note(event: string): void },
    /** The intents the records close; a log without one refuses a record that closes an intent. */
    private readonly intents?: MemoryIntents,
  ) {}

  async record(entry: ActionRecord, closing?: IntentClosing): Promise<AppendOutcome> {
    if (closing !== undefined) {
      if (this.intents === undefined)
        throw new Error('RecordingActionLog: no MemoryIntents to close the intent in');
      if (this.intents.close(closing) === 'claimed-elsewhere') return 'claimed-elsewhere';
    }
    this.entries.push(entry);
    this.timeline?.note(`record ${entry.action} ${entry.podId ?? '-'} ok=${entry.ok}`);
    return 'recorded';
  }

  /** "Create new1 ok" / "Start p1 refused", for short sequence assertions. */
  get summary(): string[] {
    return this.entries.map((e) => `${e.action} ${e.podId ?? '-'} ${e.ok ? 'ok' : 'refused'}`);
  }
}
