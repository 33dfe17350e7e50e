import { createServer, type Server } from 'node:net';
import * as freePortModule from './free-port';
import { Stack } from './stack';

/**
 * A port freePort found free can be taken by a parallel test before the gateway binds it: the gateway exits
 * with EADDRINUSE while the other process may answer its health route. The stack must notice and move the
 * gateway to another port, never talk to the other process.
 */
describe('a stack whose gateway port is taken before the gateway binds it', () => {
  let squatter: Server | null = null;
  let stack: Stack | null = null;
  afterEach(async () => {
    jest.restoreAllMocks();
    await stack?.stop();
    stack = null;
    await new Promise<void>((resolve) => (squatter ? squatter.close(() => resolve()) : resolve()));
    squatter = null;
  });

  it('starts its gateway on another port, and every call reaches that gateway', async () => {
    // The squatter answers HTTP health checks with 200, as another test's app would.
    const taken = createServer((socket) => {
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
    });
    squatter = taken;
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const address = taken.address();
    const takenPort = typeof address === 'object' && address ? address.port : 0;
    const realFreePort = freePortModule.freePort;
    let calls = 0;
    // The simulator's port first, then the taken one for the gateway, then real free ports.
    jest.spyOn(freePortModule, 'freePort').mockImplementation(() => {
      calls += 1;
      return calls === 2 ? Promise.resolve(takenPort) : realFreePort();
    });

    stack = await Stack.start({ name: 'gwport' });

    expect(calls).toBeGreaterThanOrEqual(3);
    expect(stack.gatewayUrl).not.toBe(`http://127.0.0.1:${takenPort}`);
    const health = await fetch(`${stack.gatewayUrl}/health/ready`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual(expect.objectContaining({ status: 'ok' }));
  });
});
