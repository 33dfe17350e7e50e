/**
 * The pod's public proxy base: the template with {podId} (path-escaped, so an
 * odd id cannot change the host or path) and {port} filled in.
 */
export function buildProxyUrl(template: string, podId: string, port: number): string {
  return template.split('{podId}').join(encodeURIComponent(podId)).split('{port}').join(String(port));
}

/** The vLLM metrics endpoint under a proxy base, whether or not the template ends in a slash. */
export function metricsUrl(proxyBase: string): string {
  return `${proxyBase.replace(/\/+$/, '')}/metrics`;
}
