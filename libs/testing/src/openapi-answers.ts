import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

/** The parts of an OpenAPI 3.0 document the check reads. */
export interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  readonly components?: { readonly schemas?: Record<string, Schema> };
}

/** One HTTP answer as a test saw it. */
export interface SeenAnswer {
  readonly method: string;
  /** The request path, query string allowed. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

// Problem bodies carry extension members by design; every other documented object is closed.
const OPEN_SCHEMAS = new Set(['ProblemDto']);

/**
 * Checks answers against the gateway's own OpenAPI document (/docs-json), so
 * the document cannot drift from what the routes really send: the route and
 * status must be documented, the content type too, and the body must match
 * its schema, with no undocumented field. Answers on paths the document does
 * not describe (Bull Board, /metrics, unknown routes) are not checked.
 * Records which documented route and status each checked answer exercised.
 */
export class OpenApiAnswers {
  readonly exercised = new Set<string>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly components: Record<string, Schema>;
  private readonly templates: ReadonlyArray<{ readonly template: string; readonly pattern: RegExp }>;

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    const schemas = document.components?.schemas ?? {};
    this.components = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, !OPEN_SCHEMAS.has(name))]),
    );
    this.templates = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Every documented "METHOD /template STATUS". */
  documented(): string[] {
    return Object.entries(this.document.paths).flatMap(([template, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        Object.keys(operation.responses ?? {}).map((status) => key(method, template, status)),
      ),
    );
  }

  /** The mismatches of one answer; empty when it matches (or lies outside the document). */
  check(answer: SeenAnswer): string[] {
    const path = answer.path.split('?')[0];
    const template = this.templates.find((candidate) => candidate.pattern.test(path))?.template;
    if (template === undefined) return [];
    const where = `${answer.method} ${path} → ${answer.status}`;
    const operation = this.document.paths[template][answer.method.toLowerCase()];
    if (operation === undefined) return [`${where}: the method is not documented for ${template}`];
    const response = operation.responses?.[String(answer.status)];
    if (response === undefined) return [`${where}: status ${answer.status} is not documented`];
    this.exercised.add(key(answer.method, template, String(answer.status)));
    const mediaType = answer.contentType.split(';')[0].trim();
    const schema = response.content?.[mediaType]?.schema;
    if (schema === undefined) return [`${where}: content type ${mediaType || '(none)'} is not documented`];
    // A documented text body (an event stream) has no JSON shape to check.
    if (!mediaType.endsWith('json')) return [];
    return this.validate(schema, answer.text).map((error) => `${where}: ${error}`);
  }

  private validate(schema: Schema, text: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return ['the body is not JSON'];
    }
    const cacheKey = JSON.stringify(schema);
    let validate = this.validators.get(cacheKey);
    if (validate === undefined) {
      validate = this.ajv.compile({
        ...toJsonSchema(schema, true),
        components: { schemas: this.components },
      });
      this.validators.set(cacheKey, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`);
  }
}

function key(method: string, template: string, status: string): string {
  return `${method.toUpperCase()} ${template} ${status}`;
}

/**
 * OpenAPI 3.0 schema to JSON Schema for ajv: `nullable` becomes "or null",
 * the boolean exclusiveMinimum becomes the numeric one, and (when `closed`)
 * an object that lists its properties admits no others.
 */
function toJsonSchema(schema: unknown, closed: boolean): Schema {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, closed)) as unknown as Schema;
  if (typeof schema !== 'object' || schema === null) return schema as Schema;
  const { nullable, ...rest } = schema as Schema;
  const converted: Schema = {};
  for (const [name, value] of Object.entries(rest)) {
    converted[name] = name === 'properties' ? mapValues(value, closed) : toJsonSchema(value, closed);
  }
  if (converted.exclusiveMinimum === true) {
    converted.exclusiveMinimum = converted.minimum;
    delete converted.minimum;
  }
  if (closed && converted.properties !== undefined && converted.additionalProperties === undefined) {
    converted.additionalProperties = false;
  }
  return nullable === true ? { anyOf: [{ type: 'null' }, converted] } : converted;
}

function mapValues(properties: unknown, closed: boolean): Schema {
  return Object.fromEntries(
    Object.entries(properties as Schema).map(([name, value]) => [name, toJsonSchema(value, closed)]),
  );
}
