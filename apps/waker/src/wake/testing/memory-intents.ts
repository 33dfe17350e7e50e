import type { BillableIntent, BillableIntents, IntentClosing, RecordWriteOutcome } from '@podwarden/platform';

/** The write-ahead log in memory, with every begin/settle on the fake's timeline. */
export class MemoryIntents implements Pick<BillableIntents, 'begin' | 'settle' | 'open'> {
  readonly entries = new Map<string, BillableIntent>();
  /** Intents closed by an outcome: like Redis's closed markers, a second close is refused. */
  private readonly closed = new Set<string>();

  constructor(private readonly timeline?: { note(event: string): void }) {}

  async begin(intent: BillableIntent): Promise<void> {
    this.entries.set(intent.id, intent);
    this.timeline?.note(`intent ${intent.action} ${intent.podId ?? intent.requestName ?? '-'}`);
  }

  async settle(_podName: string, intentId: string): Promise<void> {
    this.entries.delete(intentId);
    this.closed.add(intentId);
  }

  async open(): Promise<BillableIntent[]> {
    return [...this.entries.values()];
  }

  /** What the record script does to the intent beside its entry: 'claimed-elsewhere' means write nothing. */
  close(closing: IntentClosing): Exclude<RecordWriteOutcome, 'dup'> {
    const { intent } = closing;
    if (this.closed.has(intent.id)) return 'claimed-elsewhere';
    if (closing.mode === 'claim') {
      this.entries.delete(intent.id);
      this.closed.add(intent.id);
    } else {
      this.entries.set(intent.id, { ...intent, answeredStatus: closing.answeredStatus });
      this.timeline?.note(`in doubt ${intent.action} ${closing.answeredStatus}`);
    }
    return 'recorded';
  }
}
