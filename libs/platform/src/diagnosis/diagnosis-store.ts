import type Redis from 'ioredis';
import type { BootDiagnosisKind } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { readStoredOrThrow } from '../redis/stored-json';
import { recordDiagnosis } from './scripts/diagnosis-scripts';
import { storedDiagnosisSchema } from './stored-diagnosis.schema';

/** A boot diagnosis as kept with the run (the contract's shape, plus the summary). */
export interface StoredDiagnosis {
  readonly podId: string;
  /** When it was made (ISO). */
  readonly at: string;
  readonly kind: BootDiagnosisKind;
  /** Redacted before they were stored. */
  readonly evidence: readonly string[];
  readonly summary: string;
}

const KEPT = 50;

/** A pod's boot diagnoses in Redis, newest first; every app reads them. */
export class DiagnosisStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** True when this is a new finding (another pod or another kind than the newest). */
  async record(podName: string, diagnosis: StoredDiagnosis): Promise<boolean> {
    // The newest entry is replaced while the same pod keeps the same diagnosis (one per tick otherwise).
    const added = await recordDiagnosis(
      this.redis,
      [this.keys.diagnoses(podName)],
      [JSON.stringify(diagnosis), diagnosis.podId, diagnosis.kind, String(KEPT - 1)],
    );
    return Number(added) === 1;
  }

  /** Null when none was made; throws on an unreadable one, which is never "no diagnosis". */
  async latest(podName: string): Promise<StoredDiagnosis | null> {
    const raw = await this.redis.lindex(this.keys.diagnoses(podName), 0);
    return raw === null ? null : readStoredOrThrow(storedDiagnosisSchema, raw, `diagnosis of ${podName}`);
  }

  /** Throws when any entry is unreadable, as `latest` does. */
  async all(podName: string): Promise<StoredDiagnosis[]> {
    const raw = await this.redis.lrange(this.keys.diagnoses(podName), 0, KEPT - 1);
    return raw.map((json) => readStoredOrThrow(storedDiagnosisSchema, json, `diagnosis of ${podName}`));
  }
}
