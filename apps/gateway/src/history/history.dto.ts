import { ApiProperty } from '@nestjs/swagger';
import type { LastWakeOutcome } from '@podwarden/policies';
import type { ActionRecord, WakeAttemptView } from '@podwarden/platform';
import { PodPlacementDto } from '../status/pod-placement.dto';
import { RunDto } from './run.dto';

/** One billable action as /history serves it (docs/contract.md "History actions[] item"). */
export class ActionDto extends PodPlacementDto {
  @ApiProperty({ format: 'date-time' })
  readonly at!: string;

  @ApiProperty({
    enum: ['Start', 'Create', 'Terminate', 'Stop', 'KeepAlive'],
    description: 'KeepAlive: an operator set or cleared a keep-alive (no RunPod call; detail says who asked)',
  })
  readonly action!: ActionRecord['action'];

  @ApiProperty({ type: 'integer', description: "RunPod's answer; recorded also when it refused" })
  readonly httpStatus!: number;

  @ApiProperty()
  readonly ok!: boolean;

  @ApiProperty({ type: String, description: 'wake, idle, boot-grace, runtime-cap, manual, orphan, …' })
  readonly trigger!: ActionRecord['trigger'];

  @ApiProperty({ type: String, nullable: true })
  readonly detail!: string | null;
}

/** One wake attempt; the completed fields are null while it is in flight (or after a crash). */
export class WakeAttemptDto extends PodPlacementDto implements WakeAttemptView {
  @ApiProperty()
  readonly attemptId!: string;

  @ApiProperty({ format: 'date-time' })
  readonly requestedAt!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly requestedBy!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly completedAt!: string | null;

  @ApiProperty({ enum: ['Succeeded', 'Refused', 'TimedOut', 'Failed'], nullable: true })
  readonly outcome!: LastWakeOutcome | null;

  @ApiProperty({ type: String, nullable: true })
  readonly wakeOutcome!: string | null;

  @ApiProperty({ type: String, nullable: true })
  readonly reason!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  readonly candidatesConsidered!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  readonly lastProviderStatus!: number | null;
}

/** A billable call sent without a recorded outcome yet (the write-ahead log): it may have placed or started a pod. */
export class InDoubtDto {
  @ApiProperty({ format: 'date-time', description: 'when the intent was written, before the call' })
  readonly at!: string;

  @ApiProperty({ enum: ['Start', 'Create', 'Terminate', 'Stop'] })
  readonly action!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly podId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  readonly gpuId!: string | null;

  @ApiProperty({ type: Number, nullable: true })
  readonly pricePerHour!: number | null;

  @ApiProperty({ type: String, nullable: true, description: "a create's requested pod name" })
  readonly requestName!: string | null;

  @ApiProperty()
  readonly attemptId!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'the wake gate fencing token of the run' })
  readonly fenceToken!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'the ambiguous answer (0 timeout/reset, 5xx); null when no answer came (the waker died)',
  })
  readonly answeredStatus!: number | null;

  @ApiProperty({ type: String, description: 'what this means for billing' })
  readonly detail!: string;
}

/** GET …/history: the durable records side by side, newest first, and the runs assembled from them. */
export class HistoryDto {
  @ApiProperty()
  readonly name!: string;

  @ApiProperty({ type: () => [ActionDto] })
  readonly actions!: readonly ActionDto[];

  @ApiProperty({ type: () => [WakeAttemptDto] })
  readonly wakes!: readonly WakeAttemptDto[];

  @ApiProperty({
    type: () => [InDoubtDto],
    description:
      'billable calls in doubt (intent without outcome), oldest first; the next wake reconciles them',
  })
  readonly inDoubt!: readonly InDoubtDto[];

  @ApiProperty({
    type: () => [RunDto],
    description: 'runs of the pod (wake to stop), newest first, at most `limit`',
  })
  readonly runs!: readonly RunDto[];
}
