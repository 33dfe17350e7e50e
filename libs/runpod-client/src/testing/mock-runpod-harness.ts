/**
 * Not a test: the shared MockAgent harness for this library's specs (under
 * `testing/`, out of production code and out of jest's `*.spec.ts` match).
 * Every request goes through a MockAgent with net connect disabled and call
 * history on, so a spec can pin the exact method, URL, headers and body sent.
 */
import { MockAgent, type MockCallHistoryLog } from 'undici';
import { captureLogs, type LogLine } from '@podwarden/testing';
import type { RunPodClientOptions } from '../client-options';
import { RunPodClient } from '../runpod-client';

/** Distinctive, so a leak anywhere is unmistakable. */
export const FAKE_KEY = 'rpa_FAKEKEY_7c1e9b42d0_never_leak';
export const API_ORIGIN = 'http://runpod.test';
export const BASE_URL = `${API_ORIGIN}/v2`;
export const PROXY_ORIGIN = 'http://proxy.test';
export const PROXY_TEMPLATE = `${PROXY_ORIGIN}/proxy/{podId}-{port}`;

export const CONTROL_PLANE_HEADERS = { authorization: `Bearer ${FAKE_KEY}`, accept: 'application/json' };
export const CONTROL_PLANE_JSON_HEADERS = { ...CONTROL_PLANE_HEADERS, 'content-type': 'application/json' };

export const JSON_HEADERS = { 'content-type': 'application/json' };
export const PROBLEM_HEADERS = { 'content-type': 'application/problem+json' };

/** Small budgets so a `.delay()` beyond them proves the timeout path quickly. */
export const FAST_TIMEOUTS = { connectMs: 20, headersMs: 30, bodyMs: 30 };
export const SLOWER_THAN_TIMEOUT_MS = 300;

/** A logged line's own fields: without pino's level, message, time, pid and hostname. */
export function fieldsOf(line: LogLine): Record<string, unknown> {
  const { level: _level, msg: _msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = line;
  return fields;
}

export function mockRunPod(overrides: Partial<RunPodClientOptions> = {}) {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const logs = captureLogs();
  const client = new RunPodClient({
    apiKey: FAKE_KEY,
    baseUrl: BASE_URL,
    proxyUrlTemplate: PROXY_TEMPLATE,
    dispatcher: agent,
    logger: logs.logger,
    ...overrides,
  });
  return {
    agent,
    client,
    logs,
    api: agent.get(API_ORIGIN),
    proxy: agent.get(PROXY_ORIGIN),
    calls: (): MockCallHistoryLog[] => agent.getCallHistory()?.calls() ?? [],
    /** Fails the spec if an interceptor was set up but never called, then releases the agent. */
    async finish(): Promise<void> {
      agent.assertNoPendingInterceptors();
      await agent.close();
    },
  };
}

export type MockRunPod = ReturnType<typeof mockRunPod>;

/** The one request a spec expects, reduced to what was on the wire. */
export function onlyCall(mock: MockRunPod): { method: string; url: string; headers: unknown; body: unknown } {
  const calls = mock.calls();
  expect(calls).toHaveLength(1);
  const [call] = calls;
  return { method: call.method, url: call.fullUrl, headers: call.headers, body: call.body };
}

export const pod = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'abc123',
  name: 'podwarden-qwen-20261130T101500Z',
  status: 'RUNNING',
  createdAt: '2026-11-30T10:15:00Z',
  costPerHr: 1.59,
  gpu: { id: 'NVIDIA A100 80GB PCIe', count: 1 },
  runtime: { uptime: 42, gpus: [{ id: 'gpu-0' }], ports: [] },
  mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: '/workspace' }] },
  dataCenterId: 'EU-RO-1',
  templateId: 'tpl-vllm',
  ...overrides,
});
