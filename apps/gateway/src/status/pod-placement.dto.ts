import { ApiProperty } from '@nestjs/swagger';

/** Which pod, on which GPU, at what price: the fields a wake, a start answer and a billable action share. */
export class PodPlacementDto {
  @ApiProperty({ type: String, nullable: true })
  readonly podId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  readonly gpuId!: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD per hour' })
  readonly pricePerHour!: number | null;
}
