import type { PodwardenConfig } from '@podwarden/policies';
import { loadConfigOrExit } from '../config/load-config';
import { createLogger, type AppLogger } from '../logging/logger';

export interface AppStart {
  readonly config: PodwardenConfig;
  readonly logger: AppLogger;
}

/** Config first (exit 2 with one stderr line when unusable), then the logger, then every warning at Warning. */
export function startApp(app: string): AppStart {
  const { config, warnings } = loadConfigOrExit(app);
  const logger = createLogger(app, config.logLevel);
  for (const warning of warnings) logger.warn({ config: true }, `options: ${warning}`);
  return { config, logger };
}

/** Redis URL with the password hidden, for logs. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable)';
  }
}
