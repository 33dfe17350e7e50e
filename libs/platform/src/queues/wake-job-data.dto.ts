import { plainToInstance, Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength, validate, ValidateIf } from 'class-validator';
import type { WakeJobData } from './wake-job';

/** Longer than any friendly name a route can carry; a longer one is not ours. */
export const POD_NAME_MAX_LENGTH = 100;
export const REQUESTED_BY_MAX_LENGTH = 200;

const trimmed = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/**
 * The `wake` job payload. A producer outside this repo may enqueue anything,
 * so the consumer validates every job against this class before any RunPod
 * call; the gateway enqueues exactly this shape.
 */
export class WakeJobDataDto implements WakeJobData {
  // Checked bottom-up and only to the first failure: the type, then emptiness, then length.
  @Transform(trimmed)
  @MaxLength(POD_NAME_MAX_LENGTH, { message: 'podName is longer than $constraint1 characters' })
  @IsNotEmpty({ message: 'podName must be a non-empty string' })
  @IsString({ message: 'podName must be a non-empty string' })
  readonly podName!: string;

  // Absent is fine; present (even null) must be a short string.
  @ValidateIf((_dto: unknown, value: unknown) => value !== undefined)
  @MaxLength(REQUESTED_BY_MAX_LENGTH, { message: 'requestedBy is longer than $constraint1 characters' })
  @IsString({ message: 'requestedBy must be a string when present' })
  readonly requestedBy?: string;
}

export type WakeJobDataCheck =
  { readonly ok: true; readonly data: WakeJobData } | { readonly ok: false; readonly reason: string };

const INVALID = 'invalid wake payload';
const PAYLOAD_FIELDS = new Set(['podName', 'requestedBy']);
/** A hostile key can be megabytes long; the reason names only its start. */
const MAX_KEY_SHOWN = 40;

/** Parse, do not trust: the validator's messages, or the payload reduced to its two fields. */
export async function validateWakeJobData(data: unknown): Promise<WakeJobDataCheck> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, reason: `${INVALID}: expected an object { podName, requestedBy? }` };
  }
  // The transformer skips prototype keys (`__proto__`, `constructor`), so the
  // whitelist would never see them: every own key is checked here first.
  const unknown = Object.keys(data).filter((key) => !PAYLOAD_FIELDS.has(key));
  if (unknown.length > 0) {
    const named = unknown.map((key) => `property ${key.slice(0, MAX_KEY_SHOWN)} should not exist`);
    return { ok: false, reason: `${INVALID}: ${named.slice(0, 3).join('; ')}` };
  }
  const dto = plainToInstance(WakeJobDataDto, data);
  const errors = await validate(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
  });
  if (errors.length > 0) {
    const messages = errors.flatMap((error) => Object.values(error.constraints ?? {}));
    return { ok: false, reason: `${INVALID}: ${messages.join('; ')}` };
  }
  const { podName, requestedBy } = dto;
  return { ok: true, data: requestedBy === undefined ? { podName } : { podName, requestedBy } };
}
