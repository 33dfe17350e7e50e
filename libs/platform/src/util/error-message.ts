/** The message of anything thrown, for a log field or a problem detail. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
