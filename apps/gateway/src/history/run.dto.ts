import { ApiProperty } from '@nestjs/swagger';
import type { PodRun } from '@podwarden/policies';

/** A run's boot diagnosis, short: the full evidence is at GET …/diagnosis (operator token). */
export class RunDiagnosisDto {
  @ApiProperty({ enum: ['cold-pull', 'restart-loop', 'control-plane-lag', 'application-failure', 'unknown'] })
  readonly kind!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly at!: string;

  @ApiProperty()
  readonly summary!: string;
}

/** A duration in seconds (to a tenth); null when an end of it is unknown. */
const SECONDS = { type: Number, nullable: true } as const;

/**
 * One run of the pod (wake to stop) in /history: what the idle settings cost. Assembled from the
 * action log, the ready log and the wakes; times are podwarden's observations, the cost an estimate.
 */
export class RunDto implements PodRun {
  @ApiProperty()
  readonly podId!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly gpuId!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'USD per hour, as listed when it was placed or seen',
  })
  readonly pricePerHour!: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'the accepted start or create (billing starts); null when older than the records read',
  })
  readonly startedAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'when the idle monitor first saw the model answer; null if never',
  })
  readonly readyAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'the first accepted stop or terminate; null while running (or when no stop was recorded)',
  })
  readonly stoppedAt!: string | null;

  @ApiProperty({ ...SECONDS, description: 'observed: start to stop, or to now while running' })
  readonly uptimeSeconds!: number | null;

  @ApiProperty({ ...SECONDS, description: 'start to ready' })
  readonly timeToReadySeconds!: number | null;

  @ApiProperty({
    ...SECONDS,
    description: 'ready to stop (or now); 0 when never ready; at most uptimeSeconds',
  })
  readonly usableSeconds!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'idle, boot-grace, runtime-cap, manual, orphan, wake, …; null while running',
  })
  readonly stopTrigger!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "an estimate: pricePerHour × uptimeSeconds, in USD; never RunPod's bill (storage, rounding)",
  })
  readonly estimatedCostUsd!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "provider-attributed: what RunPod billed for this run (its pod's hourly buckets, shared among the pod's runs by overlap); null until RunPod has reported past the stop (BILLING_LAG_MINUTES) or while running",
  })
  readonly billedUsd!: number | null;

  @ApiProperty({
    type: RunDiagnosisDto,
    nullable: true,
    description: "the newest boot diagnosis of this run's pod made while it was up; null when none",
  })
  readonly diagnosis!: RunDiagnosisDto | null;
}
