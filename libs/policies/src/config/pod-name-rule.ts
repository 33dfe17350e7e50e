const URL_SAFE_NAME = /^[A-Za-z0-9._-]+$/;
// "." and ".." are URL-safe characters but path segments that clients resolve away.
const DOTS_ONLY = /^\.+$/;

/** Whether a friendly pod name can sit in /api/pods/{name} unescaped. */
export function isUrlSafePodName(name: string): boolean {
  return URL_SAFE_NAME.test(name) && !DOTS_ONLY.test(name);
}

export const URL_SAFE_NAME_RULE = 'letters, digits, "-", "_" and "." only';
