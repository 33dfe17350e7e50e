/** "1m05s", "42s": the "ready after" and "boot grace" texts; "unknown" when there is no duration. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return 'unknown';
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return minutes > 0 ? `${minutes}m${String(seconds).padStart(2, '0')}s` : `${seconds}s`;
}
