import { ApiProperty } from '@nestjs/swagger';

export class TraceRequestDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'when the request arrived' })
  readonly at!: string;

  @ApiProperty({ description: 'how long the request occupied the pod once served, in seconds' })
  readonly seconds!: number;
}

export class TraceStopDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'when the stop was made' })
  readonly at!: string;

  @ApiProperty({
    description: "what made it: the idle monitor's idle, boot-grace or runtime-cap, an operator's manual, …",
  })
  readonly trigger!: string;
}

/** GET …/usage: the pod's recorded usage in the trace format `podwarden what-if` replays. */
export class UsageTraceDto {
  @ApiProperty({
    description: "the pod's median measured boot, wake to model-ready (3 before one was measured)",
  })
  readonly bootMinutes!: number;

  @ApiProperty({ description: 'the price the pod last ran at (its price cap before it ran)' })
  readonly pricePerHour!: number;

  @ApiProperty({ type: [TraceRequestDto], description: 'its uses, oldest first' })
  readonly requests!: readonly TraceRequestDto[];

  @ApiProperty({
    type: [TraceStopDto],
    description: 'its recorded stops, oldest first: for study only, a what-if replay ignores them',
  })
  readonly stops!: readonly TraceStopDto[];
}
