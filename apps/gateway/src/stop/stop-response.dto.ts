import { ApiProperty } from '@nestjs/swagger';

export class StoppedPodDto {
  @ApiProperty()
  readonly podId!: string;

  @ApiProperty({ description: 'false when RunPod refused the stop' })
  readonly ok!: boolean;
}

/** 200 body of POST …/stop: ok is the conjunction of the per-pod results. */
export class StopResponseDto {
  @ApiProperty()
  readonly name!: string;

  @ApiProperty()
  readonly ok!: boolean;

  @ApiProperty({ type: () => [StoppedPodDto] })
  readonly pods!: readonly StoppedPodDto[];

  @ApiProperty({
    description:
      'true only when every pod was already down (no call needed); false after a stop was sent: the idle monitor confirms it once it sees the pod EXITED or gone (GET stopConfirmed)',
  })
  readonly stopConfirmed!: boolean;
}
