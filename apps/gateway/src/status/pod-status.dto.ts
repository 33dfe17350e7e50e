import { SpendTodayDto } from './spend-today.dto';
import { ApiProperty } from '@nestjs/swagger';
import { POD_STATUSES, type LookupWord, type PodStatus } from '@podwarden/policies';
import { LastWakeDto } from './last-wake.dto';
import { WakeProgressDto } from './wake-progress.dto';

/** v2 status upper-cased, or UNKNOWN whenever no pod could be read (lookup says why). */
export type StatusWord = Uppercase<PodStatus>;

const STATUS_WORDS = POD_STATUSES.map((status) => status.toUpperCase() as StatusWord);
const LOOKUP_WORDS: readonly LookupWord[] = ['FOUND', 'NOT_FOUND', 'UNREADABLE', 'UNCONFIGURED'];

/** GET /api/pods/{name} (CONTRACT.md "GET response", plus idleStopAt, runtimeCapAt and keepAliveUntil). */
export class PodStatusDto {
  @ApiProperty()
  readonly name!: string;

  @ApiProperty({ description: 'false when RUNPOD_API_KEY is unset or the pod has no volume id' })
  readonly configured!: boolean;

  @ApiProperty({ enum: STATUS_WORDS })
  readonly status!: StatusWord;

  @ApiProperty({ description: 'RUNNING with at least one GPU: the only state that serves' })
  readonly isRunning!: boolean;

  @ApiProperty({ type: String, nullable: true })
  readonly podId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'set whenever a pod is named; check isRunning too',
  })
  readonly proxyUrl!: string | null;

  @ApiProperty({ type: 'integer', description: 'how many pods mount the volume' })
  readonly podsOnVolume!: number;

  @ApiProperty()
  readonly datacenter!: string;

  @ApiProperty({ enum: LOOKUP_WORDS })
  readonly lookup!: LookupWord;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly readySince!: string | null;

  @ApiProperty({ type: () => WakeProgressDto, nullable: true })
  readonly wake!: WakeProgressDto | null;

  @ApiProperty({ type: () => LastWakeDto, nullable: true })
  readonly lastWake!: LastWakeDto | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly idleStopAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly runtimeCapAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'idle stop held off until then; boot grace and the runtime cap still apply',
  })
  readonly keepAliveUntil!: string | null;

  @ApiProperty({
    type: () => SpendTodayDto,
    nullable: true,
    description:
      "today's estimated spend across every pod (price × observed uptime, not RunPod's bill), open reservations and the budget; null when the ledger is unreadable",
  })
  readonly spendToday!: SpendTodayDto | null;
}

/** GET /api/pods: every configured pod's GET summary, in config order. */
export class PodListDto {
  @ApiProperty({ type: () => [PodStatusDto] })
  readonly pods!: readonly PodStatusDto[];
}
