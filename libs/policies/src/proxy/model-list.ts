/**
 * Larger than any model list one vLLM serves (about 500 bytes a model, so over
 * a hundred models or adapters); a bigger answer is forwarded but not kept.
 */
export const MAX_MODEL_LIST_BYTES = 64 * 1024;

/** A model list as the pod served it: the body's text, kept as sent, and when it was served (epoch ms). */
export interface KeptModelList {
  readonly body: string;
  readonly servedAt: number;
}

/**
 * Whether a `GET /v1/models` answer is an OpenAI model list with at least one model, worth keeping. An
 * error page or an empty list is not: a client answered from it later would see no model to ask for.
 */
export function isModelList(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (!isRecord(parsed) || parsed.object !== 'list' || !Array.isArray(parsed.data)) return false;
  const models: unknown[] = parsed.data;
  return models.length > 0 && models.every((m) => isRecord(m) && typeof m.id === 'string' && m.id !== '');
}

/** The stored form of a list (one JSON string in Redis). */
export function encodeKeptList(list: KeptModelList): string {
  return JSON.stringify({ servedAt: list.servedAt, body: list.body });
}

/** A stored list read back; null when missing or not what `encodeKeptList` writes around a model list. */
export function decodeKeptList(stored: string | null): KeptModelList | null {
  if (stored === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.body !== 'string') return null;
  const servedAt = parsed.servedAt;
  if (typeof servedAt !== 'number' || !Number.isFinite(servedAt) || servedAt < 0) return null;
  return isModelList(parsed.body) ? { body: parsed.body, servedAt } : null;
}

/** Whole seconds since the list was served (the `Age` of the answer), never negative. */
export function keptListAgeSeconds(list: KeptModelList, now: number): number {
  return Math.max(0, Math.floor((now - list.servedAt) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
