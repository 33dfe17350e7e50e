import { ApiProperty } from '@nestjs/swagger';
import type { LastWakeOutcome } from '@podwarden/policies';
import { PodPlacementDto } from './pod-placement.dto';

/** The newest completed wake as GET serves it. */
export class LastWakeDto extends PodPlacementDto {
  @ApiProperty()
  readonly attemptId!: string;

  @ApiProperty({ format: 'date-time' })
  readonly requestedAt!: string;

  @ApiProperty({ format: 'date-time' })
  readonly completedAt!: string;

  @ApiProperty({ enum: ['Succeeded', 'Refused', 'TimedOut', 'Failed'] })
  readonly outcome!: LastWakeOutcome;

  @ApiProperty({ description: 'what the wake did: AlreadyRunning, Started, Created, …' })
  readonly wakeOutcome!: string;

  @ApiProperty()
  readonly reason!: string;
}
