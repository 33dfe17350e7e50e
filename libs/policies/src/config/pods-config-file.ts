import { Checked, failed, passed } from './checked';
import type { IdlePolicyName, PodConfig } from './config-types';
import { IDLE_POLICY_WORDS } from './rhythm-setting';
import { acceptGuardNumber, formatGuardNumber, readGuardText } from './guard-rule';
import { POD_GUARDS, PodGuard } from './pod-guards';
import { isUrlSafePodName, URL_SAFE_NAME_RULE } from './pod-name-rule';
import { quoteConfigValue } from './quote-config-value';
import { splitList } from './read-environment';
import { findDuplicatePod } from './unique-pods-rule';

type JsonObject = Record<string, unknown>;

const POD_FIELDS: readonly string[] = [
  'name',
  'volumeId',
  'templateId',
  'datacenterId',
  'gpuAllowlist',
  'inferenceToken',
  'idlePolicy',
  ...POD_GUARDS.map((guard) => guard.field),
];

const SOURCE = 'PODS_CONFIG';

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// JSON null reads as omitted, like a blank variable reads as unset.
function isOmitted(value: unknown): boolean {
  return value === undefined || value === null;
}

function parseJson(text: string): Checked<unknown> {
  try {
    return passed(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 120) : 'unparseable';
    return failed(`${SOURCE} is not valid JSON (${reason})`);
  }
}

/**
 * The pods of a PODS_CONFIG file, each field it omits taken from `base` (the
 * environment's pod). A bad guard field keeps the environment's value with a
 * warning; anything that would make a pod ambiguous or unroutable is an error.
 */
export function readPodsConfig(text: string, base: PodConfig, warnings: string[]): Checked<PodConfig[]> {
  const parsed = parseJson(text);
  if (!parsed.ok) return failed(parsed.error);
  const document = parsed.value;
  if (!isJsonObject(document) || !Array.isArray(document.pods)) {
    return failed(`${SOURCE} must be an object { "pods": [ ... ] }`);
  }
  if (document.pods.length === 0) return failed(`${SOURCE} lists no pods; "pods" needs at least one`);
  warnUnknownFields(document, ['pods'], SOURCE, warnings);

  const pods: PodConfig[] = [];
  for (const [index, entry] of document.pods.entries()) {
    const pod = readPodEntry(entry, `${SOURCE} pods[${index}]`, base, warnings);
    if (!pod.ok) return pod;
    pods.push(pod.value);
  }
  const duplicate = findDuplicatePod(pods);
  return duplicate === null ? passed(pods) : failed(`${SOURCE} ${duplicate}`);
}

function warnUnknownFields(
  object: JsonObject,
  known: readonly string[],
  label: string,
  warnings: string[],
): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) warnings.push(`${label}: field ${quoteConfigValue(key)} is not known; ignored`);
  }
}

function readPodEntry(
  entry: unknown,
  label: string,
  base: PodConfig,
  warnings: string[],
): Checked<PodConfig> {
  if (!isJsonObject(entry)) return failed(`${label} is not an object`);
  warnUnknownFields(entry, POD_FIELDS, label, warnings);

  const name = typeof entry.name === 'string' ? entry.name.trim() : '';
  if (name === '') return failed(`${label} has no name`);
  if (!isUrlSafePodName(name)) {
    return failed(`${label}.name=${quoteConfigValue(name)} is not URL-safe (${URL_SAFE_NAME_RULE})`);
  }
  const volumeId = readIdentity(entry, 'volumeId', label, base.volumeId);
  if (!volumeId.ok) return failed(volumeId.error);
  const templateId = readIdentity(entry, 'templateId', label, base.templateId);
  if (!templateId.ok) return failed(templateId.error);
  const datacenterId = readIdentity(entry, 'datacenterId', label, base.datacenterId);
  if (!datacenterId.ok) return failed(datacenterId.error);

  const inferenceToken = readToken(entry.inferenceToken, label, base.inferenceToken);
  if (!inferenceToken.ok) return failed(inferenceToken.error);

  // A pod can only be created in some datacenter, so a blank one falls back to the environment's.
  if (datacenterId.value === '') {
    warnings.push(`${label}.datacenterId is blank; using ${quoteConfigValue(base.datacenterId)}`);
  }

  const pod: PodConfig = {
    ...base,
    name,
    volumeId: volumeId.value,
    templateId: templateId.value,
    datacenterId: datacenterId.value === '' ? base.datacenterId : datacenterId.value,
    gpuAllowlist: readAllowlist(entry.gpuAllowlist, label, base.gpuAllowlist, warnings),
    inferenceToken: inferenceToken.value,
    idlePolicy: readPodIdlePolicy(entry.idlePolicy, label, base.idlePolicy, warnings),
  };
  for (const guard of POD_GUARDS) {
    pod[guard.field] = readPodGuard(entry[guard.field], guard, label, base[guard.field], warnings);
  }
  return passed(pod);
}

/**
 * An identity field is used as given (blank included: a blank volume id is an
 * unconfigured pod). A wrong type is an error rather than a fallback, because
 * falling back to the environment's volume would point this pod at another's.
 */
function readIdentity(entry: JsonObject, field: string, label: string, fallback: string): Checked<string> {
  const value = entry[field];
  if (isOmitted(value)) return passed(fallback);
  if (typeof value !== 'string') return failed(`${label}.${field} must be a string`);
  return passed(value.trim());
}

/** A per-pod secret: a wrong type is an error that never quotes the value; blank means the environment's. */
function readToken(value: unknown, label: string, fallback: string | null): Checked<string | null> {
  if (isOmitted(value)) return passed(fallback);
  if (typeof value !== 'string') return failed(`${label}.inferenceToken must be a string`);
  return passed(value.trim() === '' ? fallback : value.trim());
}

function readAllowlist(value: unknown, label: string, fallback: string[], warnings: string[]): string[] {
  // Copies, so no two pods share one mutable list.
  if (isOmitted(value)) return [...fallback];
  if (typeof value === 'string') return splitList(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.map((item: string) => item.trim()).filter((item) => item !== '');
  }
  const using = fallback.length === 0 ? 'none' : quoteConfigValue(fallback.join(','));
  warnings.push(`${label}.gpuAllowlist=${quoteConfigValue(value)} is not a list of GPU ids; using ${using}`);
  return [...fallback];
}

/** `fixed` or `adaptive`; anything else keeps the environment's policy with a warning. */
function readPodIdlePolicy(
  value: unknown,
  label: string,
  fallback: IdlePolicyName,
  warnings: string[],
): IdlePolicyName {
  if (isOmitted(value)) return fallback;
  const policy = typeof value === 'string' ? IDLE_POLICY_WORDS.get(value.trim().toLowerCase()) : undefined;
  if (policy !== undefined) return policy;
  warnings.push(
    `${label}.idlePolicy=${quoteConfigValue(value)} is not one of fixed, adaptive; using ${fallback}`,
  );
  return fallback;
}

/** A JSON number or text, under the same rule as its environment variable. */
function readPodGuard(
  value: unknown,
  guard: PodGuard,
  label: string,
  fallback: number,
  warnings: string[],
): number {
  if (isOmitted(value) || (typeof value === 'string' && value.trim() === '')) return fallback;
  const accepted =
    typeof value === 'number'
      ? acceptGuardNumber(guard.rule, value)
      : typeof value === 'string'
        ? readGuardText(guard.rule, value)
        : null;
  if (accepted !== null) return accepted;
  warnings.push(
    `${label}.${guard.field}=${quoteConfigValue(value)} is not ${guard.rule.expected}; using ${formatGuardNumber(guard.rule, fallback)}`,
  );
  return fallback;
}
