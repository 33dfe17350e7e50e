import type { AppLogger } from '../logging/logger';
import { markShuttingDown } from './shutdown-state';

interface Closable {
  close(): Promise<void>;
}

/**
 * SIGTERM/SIGINT run the shutdown hooks, then exit 0: Nest's own hooks re-raise the signal, which
 * orchestrators report as a kill. A second signal, or a close that hangs, exits at once.
 */
export function closeOnSignals(app: Closable, logger: AppLogger, graceMs: number): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) {
      logger.warn({ signal }, 'second signal during shutdown; exiting now');
      process.exit(1);
    }
    closing = true;
    markShuttingDown();
    logger.info({ signal }, `${signal} received; shutting down`);
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
