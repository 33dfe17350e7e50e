import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsPositive, Max } from 'class-validator';
import { MAX_KEEP_ALIVE_MINUTES } from '@podwarden/policies';

export const KEEP_ALIVE_MINUTES_RULE = `minutes must be a number greater than 0 and at most ${MAX_KEEP_ALIVE_MINUTES}`;

/** POST …/keepalive body. A JSON number only: "30" as a string is refused, never converted. */
export class KeepAliveRequestDto {
  @ApiProperty({
    type: Number,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_KEEP_ALIVE_MINUTES,
    description: 'how long to hold off the idle stop, from now; decimals allowed',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: KEEP_ALIVE_MINUTES_RULE })
  @IsPositive({ message: KEEP_ALIVE_MINUTES_RULE })
  @Max(MAX_KEEP_ALIVE_MINUTES, { message: KEEP_ALIVE_MINUTES_RULE })
  readonly minutes!: number;
}
