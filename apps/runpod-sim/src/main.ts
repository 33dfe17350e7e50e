import { loadSimConfig } from './sim-config';
import { startSimulator } from './simulator';

/**
 * Standalone runpod-sim: reads SIM_* from the environment, prints one JSON line
 * with its URLs, and closes on SIGTERM / SIGINT. Bad configuration is one
 * stderr line and a non-zero exit.
 */
async function main(): Promise<void> {
  const loaded = loadSimConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(`runpod-sim: ${loaded.error}\n`);
    process.exit(2);
  }
  const { config } = loaded;
  let sim;
  try {
    sim = await startSimulator({
      port: config.port,
      host: config.host,
      apiKey: config.apiKey,
      scenario: config.scenario,
    });
  } catch (error) {
    process.stderr.write(`runpod-sim: cannot start on ${config.host}:${config.port}: ${describe(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(
    JSON.stringify({
      event: 'listening',
      port: sim.port,
      baseUrl: sim.baseUrl,
      proxyUrlTemplate: sim.proxyUrlTemplate,
      adminUrl: sim.adminUrl,
      speed: config.scenario.speed,
      scenario: config.scenarioPath ?? 'default',
      auth: config.apiKey === null ? 'off' : 'bearer',
    }) + '\n',
  );
  const running = sim;
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    process.stdout.write(JSON.stringify({ event: 'closing', signal }) + '\n');
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

void main();
