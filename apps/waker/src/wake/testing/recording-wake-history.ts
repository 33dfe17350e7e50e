import type { WakeCompletedRecord, WakeHistory, WakeRecord, WakeRequestedRecord } from '@podwarden/platform';

/** Keeps the Requested/Completed records a job writes, in order; with a timeline, notes 'history Requested job-1' there too. */
export class RecordingWakeHistory implements Pick<WakeHistory, 'requested' | 'completed'> {
  readonly records: WakeRecord[] = [];

  constructor(private readonly timeline?: { note(event: string): void }) {}

  async requested(record: Omit<WakeRequestedRecord, 'type'>): Promise<void> {
    this.records.push({ type: 'Requested', ...record });
    this.timeline?.note(`history Requested ${record.attemptId}`);
  }

  async completed(record: Omit<WakeCompletedRecord, 'type'>): Promise<void> {
    this.records.push({ type: 'Completed', ...record });
    this.timeline?.note(`history Completed ${record.attemptId}`);
  }
}
