import { ApiProperty } from '@nestjs/swagger';

export const SPEND_BASIS =
  "estimate: each run's price × its observed uptime (open runs at their time so far); not RunPod's bill";

/** GET …: spendToday. Account-wide (every pod), from the daily-budget ledger; an estimate, labelled as one. */
export class SpendTodayDto {
  @ApiProperty({ description: 'always true: these figures are estimates, never RunPod’s bill' })
  readonly estimate!: boolean;

  @ApiProperty({ description: 'how the estimate is made' })
  readonly basis!: string;

  @ApiProperty({ description: 'the UTC day the figures are for', example: '2026-12-01' })
  readonly day!: string;

  @ApiProperty({ description: 'runs settled today: price × observed uptime, USD' })
  readonly spentUsd!: number;

  @ApiProperty({ description: 'runs still open, priced by their time so far, USD' })
  readonly accruingUsd!: number;

  @ApiProperty({ description: "open reservations: each running wake's worst case until the cap, USD" })
  readonly reservedUsd!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'DAILY_BUDGET_USD; null when no budget is set' })
  readonly budgetUsd!: number | null;
}
