import { ApiProperty } from '@nestjs/swagger';

/** application/problem+json (RFC 9457); routes add fields such as name, outcome and attemptId. */
export class ProblemDto {
  @ApiProperty({ example: 'urn:podwarden:problem:unknown-pod' })
  readonly type!: string;

  @ApiProperty({ example: 'Unknown pod' })
  readonly title!: string;

  @ApiProperty({ type: 'integer', example: 404 })
  readonly status!: number;

  @ApiProperty()
  readonly detail!: string;
}
