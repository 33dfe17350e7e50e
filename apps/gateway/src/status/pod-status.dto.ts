import { SpendTodayDto } from './spend-today.dto';
import { ApiProperty } from '@nestjs/swagger';
import { POD_STATUSES, type LookupWord, type PodStatus } from '@podwarden/policies';
import { LastWakeDto } from './last-wake.dto';
import { WakeProgressDto } from './wake-progress.dto';
import { IdleWindowDto } from './idle-window.dto';

/** v2 status upper-cased, or UNKNOWN whenever no pod could be read (lookup says why). */
export type StatusWord = Uppercase<PodStatus>;

const STATUS_WORDS = POD_STATUSES.map((status) => status.toUpperCase() as StatusWord);
const LOOKUP_WORDS: readonly LookupWord[] = ['FOUND', 'NOT_FOUND', 'UNREADABLE', 'UNCONFIGURED'];

/** GET /api/pods/{name} (docs/contract.md "GET response"). */
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
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'when the volume shown was read from RunPod (the shared snapshot is at most STATUS_MAX_AGE_MS old while polled); null when unconfigured',
  })
  readonly observedAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'while a wake or boot is under way: its start plus the median time-to-ready of past wakes (this GPU once it has 5, else all); null without history or when nothing is booting; may lie in the past for a slow boot',
  })
  readonly expectedReadyAt!: string | null;

  @ApiProperty({
    type: () => SpendTodayDto,
    nullable: true,
    description:
      "today's estimated spend across every pod (price × observed uptime, not RunPod's bill), open reservations and the budget; null when the ledger is unreadable",
  })
  readonly spendToday!: SpendTodayDto | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description:
      'the latest accepted stop: false until the idle monitor sees every stopped pod EXITED, TERMINATED or gone (it re-stops one still up after STOP_CONFIRM_TICKS ticks), then true; null when no stop is followed (none yet, the pod was started again since, or Redis unreadable)',
  })
  readonly stopConfirmed!: boolean | null;

  @ApiProperty({
    type: () => IdleWindowDto,
    description:
      "the idle window in force: the fixed IDLE_MINUTES, or with IDLE_POLICY=adaptive the window learned from the pod's usage (the fixed one until enough idle gaps were seen)",
  })
  readonly idleWindow!: IdleWindowDto;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'when the idle monitor next pre-wakes the pod for a recurring session; null when none is planned',
  })
  readonly nextPrewakeAt!: string | null;
}

/** GET /api/pods: every configured pod's GET summary, in config order. */
export class PodListDto {
  @ApiProperty({ type: () => [PodStatusDto] })
  readonly pods!: readonly PodStatusDto[];
}
