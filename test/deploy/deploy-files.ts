import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../support/app-process';

export const DEPLOY = join(ROOT, 'deploy');

export function readYaml<T = unknown>(path: string): T {
  return parse(readFileSync(path, 'utf8')) as T;
}

/** Every document of a multi-document YAML text (kubectl kustomize's output). */
export function yamlDocuments<T = unknown>(text: string): T[] {
  return parseAllDocuments(text).map((doc) => doc.toJS() as T);
}

/** A tool the deploy specs need; scripts/ensure-prometheus.sh installs promtool and prometheus. */
export function requireTool(tool: string, installedBy: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`${tool} is not installed: run ${installedBy}`);
  return found.stdout.trim();
}

export interface RunResult {
  readonly status: number | null;
  readonly output: string;
}

export function run(command: string, args: readonly string[], cwd = ROOT): RunResult {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

export function runOrThrow(command: string, args: readonly string[], cwd = ROOT): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8' });
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to dashes. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    anchors.add(
      match[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}
