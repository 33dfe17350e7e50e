import { z } from 'zod';
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

/** The PODS_CONFIG document; its pods are read one by one so an error names the index. */
const podsDocument = z.object({ pods: z.array(z.unknown()) });

/**
 * An identity field is used as given (blank included: a blank volume id is an
 * unconfigured pod). A wrong type is an error rather than a fallback, because
 * falling back to the environment's volume would point this pod at another's.
 */
const identity = (field: string) =>
  z
    .string({ error: `.${field} must be a string` })
    .trim()
    .nullish();

/**
 * The fields whose wrong value fails the whole file, in the order they are
 * checked: the first issue, after the pod's label ("PODS_CONFIG pods[2]"), is
 * the error. The token's error never quotes it.
 */
const podIdentity = z.object(
  {
    name: z
      .string()
      .catch('')
      .transform((name) => name.trim())
      .superRefine((name, ctx) => {
        if (name === '') ctx.addIssue({ code: 'custom', message: ' has no name' });
        else if (!isUrlSafePodName(name)) {
          ctx.addIssue({
            code: 'custom',
            message: `.name=${quoteConfigValue(name)} is not URL-safe (${URL_SAFE_NAME_RULE})`,
          });
        }
      }),
    volumeId: identity('volumeId'),
    templateId: identity('templateId'),
    datacenterId: identity('datacenterId'),
    inferenceToken: identity('inferenceToken'),
  },
  { error: ' is not an object' },
);

/** A comma-separated string or an array of strings, trimmed, blanks dropped. */
const allowlist = z.union([
  z.string().transform(splitList),
  z.array(z.string()).transform((items) => items.map((item) => item.trim()).filter((item) => item !== '')),
]);

/**
 * The pods of a PODS_CONFIG file, each field it omits taken from `base` (the
 * environment's pod). A bad guard field keeps the environment's value with a
 * warning; anything that would make a pod ambiguous or unroutable is an error.
 */
export function readPodsConfig(text: string, base: PodConfig, warnings: string[]): Checked<PodConfig[]> {
  const parsed = parseJson(text);
  if (!parsed.ok) return failed(parsed.error);
  const document = podsDocument.safeParse(parsed.value);
  if (!document.success) return failed(`${SOURCE} must be an object { "pods": [ ... ] }`);
  const entries = document.data.pods;
  if (entries.length === 0) return failed(`${SOURCE} lists no pods; "pods" needs at least one`);
  warnUnknownFields(parsed.value as JsonObject, ['pods'], SOURCE, warnings);

  const pods: PodConfig[] = [];
  for (const [index, entry] of entries.entries()) {
    const pod = readPodEntry(entry, `${SOURCE} pods[${index}]`, base, warnings);
    if (!pod.ok) return pod;
    pods.push(pod.value);
  }
  const duplicate = findDuplicatePod(pods);
  return duplicate === null ? passed(pods) : failed(`${SOURCE} ${duplicate}`);
}

// Keys are listed from the raw JSON: a "__proto__" key is an own key there and is warned about.
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
  const read = podIdentity.safeParse(entry);
  const raw = entry as JsonObject;
  // An issue at the root (no path) means the entry is not an object at all.
  if (read.success || read.error.issues[0].path.length > 0)
    warnUnknownFields(raw, POD_FIELDS, label, warnings);
  if (!read.success) return failed(`${label}${read.error.issues[0].message}`);
  const { name, volumeId, templateId } = read.data;
  const datacenterId = read.data.datacenterId ?? '';
  const inferenceToken = read.data.inferenceToken ?? '';

  // A pod can only be created in some datacenter, so a blank one falls back to the environment's.
  if (read.data.datacenterId === '') {
    warnings.push(`${label}.datacenterId is blank; using ${quoteConfigValue(base.datacenterId)}`);
  }

  const pod: PodConfig = {
    ...base,
    name,
    volumeId: volumeId ?? base.volumeId,
    templateId: templateId ?? base.templateId,
    datacenterId: datacenterId === '' ? base.datacenterId : datacenterId,
    gpuAllowlist: readAllowlist(raw.gpuAllowlist, label, base.gpuAllowlist, warnings),
    // Omitted or blank means the environment's token.
    inferenceToken: inferenceToken === '' ? base.inferenceToken : inferenceToken,
    idlePolicy: readPodIdlePolicy(raw.idlePolicy, label, base.idlePolicy, warnings),
  };
  for (const guard of POD_GUARDS) {
    pod[guard.field] = readPodGuard(raw[guard.field], guard, label, base[guard.field], warnings);
  }
  return passed(pod);
}

function readAllowlist(value: unknown, label: string, fallback: string[], warnings: string[]): string[] {
  // Copies, so no two pods share one mutable list.
  if (isOmitted(value)) return [...fallback];
  const read = allowlist.safeParse(value);
  if (read.success) return read.data;
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

/**
 * A JSON number or text, under the same rule as its environment variable.
 * Custom, not a schema: a value the rule refuses keeps the fallback (never
 * bent into range), so an invalid value never widens a guard.
 */
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
