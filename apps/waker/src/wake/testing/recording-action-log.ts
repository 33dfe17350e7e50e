import type { ActionLog, ActionRecord } from '@podwarden/platform';

/** Keeps every billable-action entry the wake writes, in order. */
export class RecordingActionLog implements Pick<ActionLog, 'record'> {
  readonly entries: ActionRecord[] = [];

  constructor(private readonly timeline?: { note(event: string): void }) {}

  async record(entry: ActionRecord): Promise<void> {
    this.entries.push(entry);
    this.timeline?.note(`record ${entry.action} ${entry.podId ?? '-'} ok=${entry.ok}`);
  }

  /** "Create new1 ok" / "Start p1 refused", for short sequence assertions. */
  get summary(): string[] {
    return this.entries.map((e) => `${e.action} ${e.podId ?? '-'} ${e.ok ? 'ok' : 'refused'}`);
  }
}
