import { ApiProperty } from '@nestjs/swagger';

export const DIAGNOSIS_KINDS = [
  'cold-pull',
  'restart-loop',
  'control-plane-lag',
  'application-failure',
  'unknown',
] as const;

/** GET …/diagnosis: the pod's latest boot diagnosis (the body is `null` when there is none). */
export class DiagnosisDto {
  @ApiProperty({ description: 'the pod whose boot was diagnosed' })
  readonly podId!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'when the diagnosis was made' })
  readonly at!: string;

  @ApiProperty({ enum: DIAGNOSIS_KINDS, description: 'the classification of the boot' })
  readonly kind!: (typeof DIAGNOSIS_KINDS)[number];

  @ApiProperty({
    type: [String],
    description: 'the log lines that decided it, redacted (secret-shaped text replaced by [redacted])',
  })
  readonly evidence!: readonly string[];

  @ApiProperty({ description: 'one sentence saying what was seen' })
  readonly summary!: string;
}
