/** One event an app under test published, as the publisher was called. */
export interface RecordedEvent {
  readonly pod: string;
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A stand-in for the platform's PodEventPublisher (its `publish` shape):
 * keeps every event in memory so a spec asserts what was announced.
 */
export class RecordedEvents {
  readonly events: RecordedEvent[] = [];
  private next = 1;

  publish(pod: string, type: string, data: Readonly<Record<string, unknown>>): Promise<string | null> {
    this.events.push({ pod, type, data });
    return Promise.resolve(`${this.next++}-0`);
  }

  /** The data of every event of one type, in order. */
  of(type: string): Readonly<Record<string, unknown>>[] {
    return this.events.filter((e) => e.type === type).map((e) => e.data);
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }
}
