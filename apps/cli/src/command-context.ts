import type { CliRuntime } from './cli-runtime';
import { GatewayClient } from './gateway/gateway-client';
import { gatewaySettings } from './gateway/gateway-settings';
import { ProgressReporter } from './output/progress-reporter';
import { terminalStyle, useColour, type TerminalStyle } from './output/terminal-style';
import type { Clock } from './time/clock';

/** The options every command takes (commander merges --url/--token with PODWARDEN_URL/PODWARDEN_TOKEN). */
export interface GlobalOptions {
  readonly url?: string;
  readonly token?: string;
}

/** What a command runs with: the gateway client, the clock, stderr progress, and the process. */
export class CommandContext {
  readonly client: GatewayClient;
  readonly clock: Clock;
  readonly style: TerminalStyle;

  constructor(
    readonly runtime: CliRuntime,
    options: GlobalOptions,
  ) {
    this.client = new GatewayClient(gatewaySettings(options.url, options.token));
    this.clock = runtime.clock;
    this.style = terminalStyle(useColour(runtime.stderrIsTty, runtime.env));
  }

  progress(subject: string): ProgressReporter {
    return new ProgressReporter(this.runtime.err, this.clock, this.style, subject);
  }
}
