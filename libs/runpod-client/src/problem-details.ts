import { z } from 'zod';
import { isRecord, nonBlankText } from './json-reading';
import type { ResponseHeaders } from './http-exchange';

const MAX_DETAIL_LENGTH = 300;

/** The problem's detail, else its title; null when the body is not an object carrying either. */
const problemSummary = z
  .object({ detail: nonBlankText, title: nonBlankText })
  .transform((problem) => problem.detail ?? problem.title)
  .catch(null);

/** The media type of a response, lower-cased, without parameters; '' when absent. */
export function mediaTypeOf(headers: ResponseHeaders): string {
  const raw = headers['content-type'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * RunPod's own "not found or not accessible" answer (RFC 9457 problem details).
 * Only this is an affirmative absence: a bare or HTML 404 comes from a wrong
 * base URL or a proxy page and proves nothing about the pod.
 */
export function isProblemNotFound(status: number, headers: ResponseHeaders, parsedBody: unknown): boolean {
  if (status !== 404 || !isRecord(parsedBody)) {
    return false;
  }
  const mediaType = mediaTypeOf(headers);
  if (mediaType === 'application/problem+json') {
    return true;
  }
  // Key presence, whatever its value: a schema would read a wrong-typed status as absent.
  return mediaType === 'application/json' && ('status' in parsedBody || 'title' in parsedBody);
}

/** The problem's detail, else its title, cut to a log-friendly length; null when the body carries neither. */
export function problemText(parsedBody: unknown): string | null {
  const text = problemSummary.parse(parsedBody);
  return text === null ? null : truncate(text, MAX_DETAIL_LENGTH);
}

export function truncate(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
}
