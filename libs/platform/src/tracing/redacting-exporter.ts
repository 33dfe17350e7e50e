import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { AttributeValue, Attributes } from '@opentelemetry/api';

/** Attribute names that could carry a credential, whatever instrumentation set them. */
const CREDENTIAL_NAME = /authorization|x-rig-operator-token|token|api[-_.]?key|password|cookie/i;
export const REDACTED = '[redacted]';

/**
 * The last gate before a span leaves: an attribute (span or event) named like a credential, or holding a
 * secret, is replaced. Our spans set no headers; this covers instrumentation configured later.
 */
export class RedactingSpanExporter implements SpanExporter {
  private readonly secrets: readonly string[];

  constructor(
    private readonly inner: SpanExporter,
    secrets: ReadonlyArray<string | null | undefined>,
  ) {
    this.secrets = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(
      spans.map((span) => this.redacted(span)),
      resultCallback,
    );
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private redacted(span: ReadableSpan): ReadableSpan {
    const attributes = this.clean(span.attributes);
    const events = span.events.map((event) => ({ ...event, attributes: this.clean(event.attributes) }));
    // A view over the span with the cleaned fields; everything else is read from the original.
    return Object.create(span, {
      attributes: { value: attributes },
      events: { value: events },
      name: { value: this.scrub(span.name) },
    }) as ReadableSpan;
  }

  private clean(attributes: Attributes | undefined): Attributes {
    const cleaned: Attributes = {};
    for (const [key, value] of Object.entries(attributes ?? {})) {
      cleaned[key] = CREDENTIAL_NAME.test(key) ? REDACTED : this.scrubValue(value);
    }
    return cleaned;
  }

  private scrubValue(value: AttributeValue | undefined): AttributeValue | undefined {
    if (typeof value === 'string') return this.scrub(value);
    if (Array.isArray(value))
      return value.map((item) => (typeof item === 'string' ? this.scrub(item) : item)) as AttributeValue;
    return value;
  }

  private scrub(text: string): string {
    return this.secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
  }
}
