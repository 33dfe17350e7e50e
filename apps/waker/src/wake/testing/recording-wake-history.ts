import type { WakeCompletedRecord, WakeHistory, WakeRecord, WakeRequestedRecord } from '@podwarden/platform';

/** Keeps the Requested/Completed records a job writes, in order. */
export class RecordingWakeHistory implements Pick<WakeHistory, 'requested' | 'completed'> {
  readonly records: WakeRecord[] = [];

  async requested(record: Omit<WakeRequestedRecord, 'type'>): Promise<void> {
    this.records.push({ type: 'Requested', ...record });
  }

  async completed(record: Omit<WakeCompletedRecord, 'type'>): Promise<void> {
    this.records.push({ type: 'Completed', ...record });
  }
}
