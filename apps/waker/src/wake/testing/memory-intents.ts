import type { BillableIntent, BillableIntents } from '@podwarden/platform';

/** The write-ahead log in memory, with every begin/settle on the fake's timeline. */
export class MemoryIntents implements Pick<BillableIntents, 'begin' | 'inDoubt' | 'settle' | 'open'> {
  readonly entries = new Map<string, BillableIntent>();

  constructor(private readonly timeline?: { note(event: string): void }) {}

  async begin(intent: BillableIntent): Promise<void> {
    this.entries.set(intent.id, intent);
    this.timeline?.note(`intent ${intent.action} ${intent.podId ?? intent.requestName ?? '-'}`);
  }

  async inDoubt(intent: BillableIntent, answeredStatus: number): Promise<void> {
    this.entries.set(intent.id, { ...intent, answeredStatus });
    this.timeline?.note(`in doubt ${intent.action} ${answeredStatus}`);
  }

  async settle(_podName: string, intentId: string): Promise<void> {
    this.entries.delete(intentId);
  }

  async open(): Promise<BillableIntent[]> {
    return [...this.entries.values()];
  }
}
