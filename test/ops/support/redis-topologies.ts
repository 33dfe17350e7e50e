import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually } from '../../support/app-process';
import { RedisServer } from '../../support/redis-server';

const run = promisify(execFile);

/** How long a topology may take to form or to fail over on a busy two-core machine. */
const TOPOLOGY_DEADLINE_MS = 60_000;

/**
 * A Redis Cluster of real redis-server processes this spec owns: three
 * masters, each with one replica, created with `redis-cli --cluster create`.
 */
export class RedisClusterUnderTest {
  private constructor(readonly nodes: RedisServer[]) {}

  static async start(): Promise<RedisClusterUnderTest> {
    const nodes: RedisServer[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        nodes.push(
          await RedisServer.start([
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '1500',
          ]),
        );
      }
      const cluster = new RedisClusterUnderTest(nodes);
      await run('redis-cli', [
        '--cluster',
        'create',
        ...nodes.map((n) => n.address),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      await cluster.untilHealthy();
      return cluster;
    } catch (error) {
      await Promise.all(nodes.map((n) => n.stop()));
      throw error;
    }
  }

  /** REDIS_CLUSTER_NODES: every node as a seed. */
  get seeds(): string {
    return this.nodes.map((n) => n.address).join(',');
  }

  /**
   * Promotes the replica of the master that holds `key`'s slot (CLUSTER
   * FAILOVER on the replica, the way an operator moves a primary) and waits
   * until the cluster agrees. Returns the node promoted.
   */
  async failoverSlotOf(key: string): Promise<RedisServer> {
    const slot = Number(await this.nodes[0].command('CLUSTER', 'KEYSLOT', key));
    const master = await this.masterOf(slot);
    const replica = await this.replicaOf(master);
    await replica.command('CLUSTER', 'FAILOVER');
    await eventually(
      async () => ((await this.masterOf(slot)) === replica ? true : undefined),
      TOPOLOGY_DEADLINE_MS,
      `the replica on ${replica.port} taking over slot ${slot}`,
      200,
    );
    await this.untilHealthy();
    return replica;
  }

  /** Keys matching `pattern` on every master, and how many of them are in `tag`'s slot. */
  async keysOf(pattern: string, tag: string): Promise<{ inTagSlot: number; total: number }> {
    const slot = Number(await this.nodes[0].command('CLUSTER', 'KEYSLOT', tag));
    let total = 0;
    let inTagSlot = 0;
    for (const node of this.nodes) {
      const role = (await node.command('ROLE')) as [string];
      if (role[0] !== 'master') continue;
      const keys = (await node.command('KEYS', pattern)) as string[];
      total += keys.length;
      for (const key of keys) if (Number(await node.command('CLUSTER', 'KEYSLOT', key)) === slot) inTagSlot++;
    }
    return { inTagSlot, total };
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
  }

  private async masterOf(slot: number): Promise<RedisServer> {
    const slots = (await this.nodes[0].command('CLUSTER', 'SLOTS')) as Array<
      [number, number, [string, number]]
    >;
    const range = slots.find(([from, to]) => slot >= from && slot <= to);
    const port = range?.[2][1];
    const node = this.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`no master for slot ${slot}`);
    return node;
  }

  private async replicaOf(master: RedisServer): Promise<RedisServer> {
    const masterId = String(await master.command('CLUSTER', 'MYID'));
    const lines = String(await master.command('CLUSTER', 'NODES'))
      .trim()
      .split('\n');
    const replicaLine = lines.find((line) => line.split(' ')[3] === masterId);
    const port = Number(/:(\d+)@/.exec(replicaLine ?? '')?.[1]);
    const node = this.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`no replica of the master on ${master.port}`);
    return node;
  }

  private untilHealthy(): Promise<true> {
    return eventually(
      async () => {
        for (const node of this.nodes) {
          const info = String(await node.command('CLUSTER', 'INFO'));
          if (!info.includes('cluster_state:ok')) return undefined;
        }
        return true;
      },
      TOPOLOGY_DEADLINE_MS,
      'the cluster healthy on every node',
      200,
    );
  }
}

/** One primary, one replica and three sentinels, real processes this spec owns. */
export class RedisSentinelGroupUnderTest {
  private constructor(
    readonly name: string,
    readonly servers: RedisServer[],
    readonly sentinels: RedisServer[],
  ) {}

  static async start(name = 'podwarden-primary'): Promise<RedisSentinelGroupUnderTest> {
    const servers: RedisServer[] = [];
    const sentinels: RedisServer[] = [];
    try {
      const primary = await RedisServer.start();
      servers.push(primary);
      servers.push(await RedisServer.start(['--replicaof', '127.0.0.1', String(primary.port)]));
      for (let i = 0; i < 3; i++) {
        sentinels.push(
          await RedisServer.sentinel([
            `sentinel monitor ${name} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${name} 1000`,
            `sentinel failover-timeout ${name} 3000`,
            `sentinel parallel-syncs ${name} 1`,
          ]),
        );
      }
      const group = new RedisSentinelGroupUnderTest(name, servers, sentinels);
      await group.untilFormed();
      return group;
    } catch (error) {
      await Promise.all([...servers, ...sentinels].map((s) => s.stop()));
      throw error;
    }
  }

  /** REDIS_SENTINELS */
  get sentinelAddresses(): string {
    return this.sentinels.map((s) => s.address).join(',');
  }

  async primary(): Promise<RedisServer> {
    const [, port] = (await this.sentinels[0].command('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name)) as [
      string,
      string,
    ];
    const server = this.servers.find((s) => s.port === Number(port));
    if (server === undefined) throw new Error(`sentinels name an unknown primary on ${port}`);
    return server;
  }

  /**
   * SENTINEL FAILOVER once the replica has caught up (as an operator's
   * planned switch-over would), then waits until the replica is the primary
   * every sentinel names, and the old primary replicates from it.
   */
  async failover(): Promise<RedisServer> {
    const before = await this.primary();
    const next = this.servers.find((s) => s !== before);
    if (next === undefined) throw new Error('no replica to promote');
    await this.untilInSync(before, next);
    // A sentinel refuses a new failover of the same primary for a while after the last one
    // (twice failover-timeout): ask again until the switch is seen.
    const switched = async (): Promise<true | undefined> => {
      for (const sentinel of this.sentinels) {
        const [, port] = (await sentinel.command('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name)) as [
          string,
          string,
        ];
        if (Number(port) !== next.port) return undefined;
      }
      const role = (await next.command('ROLE')) as [string];
      return role[0] === 'master' ? true : undefined;
    };
    await eventually(
      async () => {
        // Only while the old primary is still the one named: never fail back over.
        if ((await this.primary()) === before) {
          await this.sentinels[0].command('SENTINEL', 'FAILOVER', this.name).catch(() => undefined);
        }
        return eventually(switched, 5000, 'the switch', 200).catch(() => undefined);
      },
      TOPOLOGY_DEADLINE_MS,
      `the failover to ${next.port}`,
      0,
    );
    await this.untilInSync(next, before);
    return next;
  }

  private untilInSync(primary: RedisServer, replica: RedisServer): Promise<true> {
    const field = (info: string, name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
    return eventually(
      async () => {
        const ofReplica = String(await replica.command('INFO', 'replication'));
        const ofPrimary = String(await primary.command('INFO', 'replication'));
        if (field(ofReplica, 'master_link_status') !== 'up') return undefined;
        if (field(ofReplica, 'master_port') !== String(primary.port)) return undefined;
        return field(ofReplica, 'slave_repl_offset') === field(ofPrimary, 'master_repl_offset')
          ? true
          : undefined;
      },
      TOPOLOGY_DEADLINE_MS,
      `the replica on ${replica.port} in sync with ${primary.port}`,
      100,
    );
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.servers].map((s) => s.stop()));
  }

  /** The replica in sync, and every sentinel knowing the replica and the other two sentinels. */
  private untilFormed(): Promise<true> {
    return eventually(
      async () => {
        const replication = String(await this.servers[1].command('INFO', 'replication'));
        if (!replication.includes('master_link_status:up')) return undefined;
        for (const sentinel of this.sentinels) {
          const replicas = (await sentinel.command('SENTINEL', 'REPLICAS', this.name)) as unknown[];
          const peers = (await sentinel.command('SENTINEL', 'SENTINELS', this.name)) as unknown[];
          if (replicas.length < 1 || peers.length < 2) return undefined;
        }
        return true;
      },
      TOPOLOGY_DEADLINE_MS,
      'the sentinel group formed',
      200,
    );
  }
}
