/** The wake queue refuses a longer podName, so a longer configured name could never be woken. */
export const MAX_POD_NAME_LENGTH = 100;
const URL_SAFE_NAME = /^[A-Za-z0-9._-]+$/;
// "." and ".." are URL-safe characters but path segments that clients resolve away.
const DOTS_ONLY = /^\.+$/;

/** Whether a friendly pod name can sit in /api/pods/{name} unescaped. */
export function isUrlSafePodName(name: string): boolean {
  return name.length <= MAX_POD_NAME_LENGTH && URL_SAFE_NAME.test(name) && !DOTS_ONLY.test(name);
}

// Kept short: the length limit is far past any friendly name and only a hostile file meets it.
export const URL_SAFE_NAME_RULE = 'letters, digits, "-", "_" and "." only';
