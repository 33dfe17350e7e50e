import { ApiProperty } from '@nestjs/swagger';

/** GET's idleWindow: the idle window in force and why. */
export class IdleWindowDto {
  @ApiProperty({ description: 'idle minutes after the last use before the pod is stopped' })
  readonly minutes!: number;

  @ApiProperty({ enum: ['fixed', 'adaptive'], description: 'IDLE_POLICY (per pod: idlePolicy)' })
  readonly policy!: 'fixed' | 'adaptive';

  @ApiProperty({
    description:
      'why this window, e.g. "learned from 143 idle gaps over 9 days", "fixed window of 15 min", or a pre-woken pod\'s short window',
  })
  readonly basis!: string;
}
