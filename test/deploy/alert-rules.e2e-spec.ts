import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/app-process';
import { DEPLOY, headingAnchors, readYaml, requireTool, run } from './deploy-files';

interface Rule {
  readonly alert?: string;
  readonly expr: string;
  readonly annotations?: Record<string, string>;
  readonly labels?: Record<string, string>;
}
interface RuleFile {
  readonly groups: { readonly name: string; readonly rules: Rule[] }[];
}
interface RuleTests {
  readonly tests: {
    readonly name: string;
    readonly alert_rule_test?: { readonly alertname: string; readonly exp_alerts?: unknown[] }[];
  }[];
}

const RULES = join(DEPLOY, 'prometheus', 'alerts.yml');
const RULE_TESTS = join(DEPLOY, 'prometheus', 'alerts.test.yml');

/**
 * deploy/prometheus/alerts.yml through Debian's promtool: the rules load, and
 * every alert fires on series that should fire it and stays quiet on near misses.
 */
describe('alert rules (promtool)', () => {
  const alerts = readYaml<RuleFile>(RULES).groups.flatMap((group) =>
    group.rules.filter((rule): rule is Rule & { alert: string } => rule.alert !== undefined),
  );

  beforeAll(() => {
    requireTool('promtool', 'scripts/ensure-prometheus.sh');
  });

  it('promtool check rules accepts the file', () => {
    const result = run('promtool', ['check', 'rules', RULES]);
    expect(result.output).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(result.status).toBe(0);
  });

  it('promtool test rules passes every case', () => {
    const result = run('promtool', ['test', 'rules', RULE_TESTS]);
    expect(result.output).not.toContain('FAILED');
    expect(result.status).toBe(0);
  });

  it('every alert has a case that fires it and one that keeps it quiet', () => {
    const cases = readYaml<RuleTests>(RULE_TESTS).tests.flatMap((test) => test.alert_rule_test ?? []);
    const missing = alerts.flatMap((rule) => {
      const own = cases.filter((c) => c.alertname === rule.alert);
      const gaps: string[] = [];
      if (!own.some((c) => (c.exp_alerts ?? []).length > 0)) gaps.push(`${rule.alert}: no firing case`);
      if (!own.some((c) => (c.exp_alerts ?? []).length === 0)) gaps.push(`${rule.alert}: no quiet case`);
      return gaps;
    });
    expect(missing).toEqual([]);
  });

  it('covers the runbook money and operational alerts, each with a summary and a runbook section', () => {
    expect(alerts.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'PodwardenIdleTicksStale',
        'PodwardenStopsUnconfirmed',
        'PodwardenPodPastRuntimeCap',
        'PodwardenBudgetNearlySpent',
        'PodwardenOrphansFound',
        'PodwardenWakeFailures',
        'PodwardenRunPodUnreachable',
        'PodwardenRunPodRefusing',
        'PodwardenRedisUnreachable',
        'PodwardenProxyShedding',
      ]),
    );
    const anchors = headingAnchors(readFileSync(join(ROOT, 'docs', 'runbook.md'), 'utf8'));
    const problems = alerts.flatMap((rule) => {
      const found: string[] = [];
      if (!rule.annotations?.summary) found.push(`${rule.alert}: no summary`);
      if (!['critical', 'warning'].includes(rule.labels?.severity ?? ''))
        found.push(`${rule.alert}: severity`);
      const link = /^docs\/runbook\.md#(.+)$/.exec(rule.annotations?.runbook_url ?? '');
      if (!link || !anchors.has(link[1]))
        found.push(`${rule.alert}: runbook_url ${rule.annotations?.runbook_url}`);
      return found;
    });
    expect(problems).toEqual([]);
  });
});
