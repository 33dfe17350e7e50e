import { ApiProperty } from '@nestjs/swagger';
import { PodPlacementDto } from '../status/pod-placement.dto';

/** The 200/202 body of POST /api/pods/{name}/start (docs/contract.md "Start response"). */
export class StartResponseDto extends PodPlacementDto {
  @ApiProperty()
  readonly name!: string;

  @ApiProperty({ enum: ['AlreadyRunning', 'Started', 'Created', 'Waiting'] })
  readonly outcome!: 'AlreadyRunning' | 'Started' | 'Created' | 'Waiting';

  @ApiProperty({ description: 'the wake job; a start that joined a wake in flight reports that one' })
  readonly attemptId!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly proxyUrl!: string | null;

  @ApiProperty()
  readonly message!: string;
}
