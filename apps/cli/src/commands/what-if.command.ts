import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  parseUsageTrace,
  replaySettingsFromEnvironment,
  replayTrace,
  type IdlePolicyName,
  type PolicyReplay,
  type UsageTrace,
} from '@podwarden/policies';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { CliError } from '../output/cli-error';
import { examples, type RunCommand } from './run-command';

interface WhatIfOptions {
  readonly trace?: string;
  readonly policy?: string;
  readonly days?: string;
}

const POLICIES: readonly IdlePolicyName[] = ['fixed', 'adaptive'];

function policiesOf(text: string | undefined): readonly IdlePolicyName[] {
  if (text === undefined) return POLICIES;
  const policy = POLICIES.find((name) => name === text.trim().toLowerCase());
  if (policy === undefined)
    throw new CliError('bad_request', `--policy must be fixed or adaptive, not ${JSON.stringify(text)}`);
  return [policy];
}

function daysOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d{1,3}$/.test(text.trim()) || Number(text) < 1) {
    throw new CliError(
      'bad_request',
      `--days must be a whole number of 1 or more, not ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

function traceOf(document: unknown, source: string): UsageTrace {
  const parsed = parseUsageTrace(document);
  if (parsed.kind === 'invalid')
    throw new CliError('bad_request', `${source} is not a usage trace: ${parsed.reason}`);
  return parsed.trace;
}

async function readTraceFile(path: string): Promise<UsageTrace> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      'bad_request',
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return traceOf(JSON.parse(text), path);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('bad_request', `${path} is not JSON`);
  }
}

/** The contract's output row: the replay without its list of stops. */
function row({
  stops: _stops,
  prewakeHits: _hits,
  ...summary
}: PolicyReplay): Omit<PolicyReplay, 'stops' | 'prewakeHits'> {
  return summary;
}

/** Replays a trace file, or a pod's recorded usage, through the idle monitor's own policy code. */
export async function whatIf(
  context: CommandContext,
  name: string | undefined,
  options: WhatIfOptions,
): Promise<unknown> {
  if ((name === undefined) === (options.trace === undefined)) {
    throw new CliError('bad_request', 'give either a pod NAME or --trace FILE');
  }
  const policies = policiesOf(options.policy);
  const days = daysOf(options.days);
  const warnings: string[] = [];
  const settings = replaySettingsFromEnvironment(context.runtime.env, warnings);
  for (const warning of warnings) context.runtime.err(`warning: ${warning}\n`);
  const trace =
    options.trace !== undefined
      ? await readTraceFile(options.trace)
      : traceOf(
          requireOk(await context.client.get(podPath(name!, `/usage${days === null ? '' : `?days=${days}`}`)))
            .body,
          `the usage of ${name}`,
        );
  return { policies: policies.map((policy) => row(replayTrace(trace, policy, settings))) };
}

export function registerWhatIf(program: Command, run: RunCommand): void {
  program
    .command('what-if')
    .argument('[name]', 'pod name: replay its own recorded usage (GET …/usage, operator token)')
    .option('--trace <file>', 'replay a trace file instead (no gateway, Redis or RunPod needed)')
    .option('--policy <policy>', 'fixed or adaptive (both when omitted)')
    .option(
      '--days <n>',
      "with NAME: days of the pod's usage to replay (the gateway's default: all it keeps)",
    )
    .description(
      'Replay usage through the idle policy in simulated time: billed minutes, cost, cold starts, waits, pre-wakes',
    )
    .addHelpText(
      'after',
      examples(
        'podwarden what-if --trace bench/traces/bursty-agent.json',
        'IDLE_MINUTES=10 podwarden what-if --trace my-trace.json --policy adaptive',
        'podwarden what-if qwen --days 14',
      ),
    )
    .action((name: string | undefined, options: WhatIfOptions, command: Command) =>
      run(command, (context) => whatIf(context, name, options)),
    );
}
