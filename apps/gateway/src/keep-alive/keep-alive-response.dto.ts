import { ApiProperty } from '@nestjs/swagger';

/** POST and DELETE …/keepalive: the deadline now in force (null once cleared). */
export class KeepAliveResponseDto {
  @ApiProperty()
  readonly name!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'idle stop held off until then; null after DELETE',
  })
  readonly keepAliveUntil!: string | null;
}
