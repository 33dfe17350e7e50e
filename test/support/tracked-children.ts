import type { ChildProcess } from 'node:child_process';

/**
 * Hands a spawned process to the e2e environment, which kills it if the spec
 * file ends with it still running (test/support/e2e-environment.js): a failed
 * spec must not leave a process that keeps Jest, or Redis, busy.
 */
export function trackChild(child: ChildProcess): ChildProcess {
  (globalThis as { __podwardenChildren?: Set<ChildProcess> }).__podwardenChildren?.add(child);
  return child;
}
