import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath, START_TIMEOUT_MS } from '../gateway/gateway-client';
import { InterruptHandler } from '../interrupt/interrupt-handler';
import { CliError } from '../output/cli-error';
import { parseDuration } from '../time/duration';
import { interrupted, interruptedTwice, MAY_BE_BILLING, nameWhatMayBeBilling } from '../wait/billing-ids';
import { startAndWait } from '../wait/start-and-wait';
import { WaitTracker } from '../wait/wait-tracker';
import { examples, type RunCommand } from './run-command';

export const DEFAULT_WAIT_TIMEOUT = '10m';

interface StartOptions {
  readonly wait?: boolean;
  readonly waitTimeout: string;
}

function waitTimeoutMs(options: StartOptions, command: Command): number {
  if (!options.wait && command.getOptionValueSource('waitTimeout') === 'cli') {
    throw new CliError('bad_request', '--wait-timeout only applies with --wait');
  }
  const parsed = parseDuration(options.waitTimeout);
  if (!parsed.ok) throw new CliError('bad_request', `--wait-timeout: ${parsed.reason}`);
  return parsed.ms;
}

/** POST …/start once: the answer as it is (202 Waiting means the wake carries on). */
async function startOnce(context: CommandContext, name: string, interrupt: AbortSignal): Promise<unknown> {
  const answer = await context.client.post(podPath(name, '/start'), undefined, {
    signal: interrupt,
    timeoutMs: START_TIMEOUT_MS,
  });
  try {
    return requireOk(answer).body;
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== 'unreachable') throw error;
    // The request may have reached the gateway: say what is safe to do next.
    const message = `${error.message}; a wake may be in flight, and repeating the start is safe (it joins it)`;
    throw new CliError('unreachable', message, { ...error.fields, name });
  }
}

/**
 * `start NAME [--wait]`. Ctrl-C ends it with wait_interrupted and the ids of
 * what may be billing; a second Ctrl-C exits at once. Nothing is ever stopped
 * because a wait ended.
 */
export async function startPod(
  context: CommandContext,
  name: string,
  options: StartOptions,
  command: Command,
): Promise<unknown> {
  const timeoutMs = waitTimeoutMs(options, command);
  const tracker = new WaitTracker(name);
  const interrupts = new InterruptHandler(context.runtime.signals, () => {
    const error = interruptedTwice(tracker);
    context.runtime.exitNow(error.document(), error.exitCode);
  }).install();
  try {
    if (!options.wait) return await startOnce(context, name, interrupts.signal);
    return (await startAndWait(context, timeoutMs, tracker, interrupts.signal)).body;
  } catch (error) {
    if (interrupts.signal.aborted) throw await nameWhatMayBeBilling(context, tracker, interrupted(tracker));
    if (error instanceof CliError && MAY_BE_BILLING.has(error.code)) {
      throw await nameWhatMayBeBilling(context, tracker, error, interrupts.signal);
    }
    throw error instanceof CliError ? error.withDefaults(tracker.fields()) : error;
  } finally {
    interrupts.dispose();
  }
}

export function registerStart(program: Command, run: RunCommand): void {
  program
    .command('start')
    .argument('<name>', 'pod name (case-insensitive)')
    .option('--wait', 'return when the model is ready (readySince set), not when the pod is RUNNING')
    .option(
      '--wait-timeout <duration>',
      'give up waiting after this long: s, m, h or d, from 1s to 7d',
      DEFAULT_WAIT_TIMEOUT,
    )
    .description('Wake the pod: start the stopped one on the volume or create a replacement (needs a token)')
    .addHelpText(
      'after',
      `${examples(
        'podwarden start qwen',
        'podwarden start qwen --wait',
        'podwarden start qwen --wait --wait-timeout 20m && curl "$(podwarden status qwen | jq -r .proxyUrl)/v1/models"',
      )}
A wait that ends (timeout, Ctrl-C, an error) never stops the pod: the error names
attemptId and podId, and \`podwarden stop NAME\` stops it. A second Ctrl-C exits at once.
`,
    )
    .action((name: string, options: StartOptions, command: Command) =>
      run(command, (context) => startPod(context, name, options, command)),
    );
}
