/**
 * Whether a create's answer leaves a pod we may be billed for but cannot name:
 * a timeout or reset (status 0), a 5xx, or a success without a pod id. Such a
 * create is settled by re-reading the volume before anything else is billed.
 */
export function createInDoubt(httpStatus: number, podId: string | null): boolean {
  return httpStatus === 0 || httpStatus >= 500 || (httpStatus < 300 && !podId);
}
