import { ApiProperty } from '@nestjs/swagger';
import type { WakeProgress } from '@podwarden/platform';

/** The wake in flight, as the waker last reported it. */
export class WakeProgressDto implements WakeProgress {
  @ApiProperty()
  readonly attemptId!: string;

  @ApiProperty({ example: 'observe' })
  readonly phase!: string;

  @ApiProperty()
  readonly message!: string;

  @ApiProperty({ format: 'date-time' })
  readonly updatedAt!: string;
}
