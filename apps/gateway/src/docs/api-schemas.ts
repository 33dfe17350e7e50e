import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

// Response shapes for the OpenAPI document, written out by hand: the routes
// answer plain interfaces, which carry no runtime metadata for Swagger to read.

const nullableString: SchemaObject = { type: 'string', nullable: true };
const nullableNumber: SchemaObject = { type: 'number', nullable: true };

export const PROBLEM_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'application/problem+json; routes add fields such as name, outcome and attemptId',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
  },
  additionalProperties: true,
};

export const START_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    outcome: { type: 'string', enum: ['AlreadyRunning', 'Started', 'Created', 'Waiting'] },
    attemptId: { type: 'string' },
    podId: nullableString,
    gpuId: nullableString,
    pricePerHour: nullableNumber,
    proxyUrl: nullableString,
    message: { type: 'string' },
  },
};

export const STOP_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    ok: { type: 'boolean' },
    pods: {
      type: 'array',
      items: { type: 'object', properties: { podId: { type: 'string' }, ok: { type: 'boolean' } } },
    },
  },
};

const WAKE_PROGRESS_SCHEMA: SchemaObject = {
  type: 'object',
  nullable: true,
  properties: {
    attemptId: { type: 'string' },
    phase: { type: 'string' },
    message: { type: 'string' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const LAST_WAKE_SCHEMA: SchemaObject = {
  type: 'object',
  nullable: true,
  properties: {
    attemptId: { type: 'string' },
    requestedAt: { type: 'string', format: 'date-time' },
    completedAt: { type: 'string', format: 'date-time' },
    outcome: { type: 'string', enum: ['Succeeded', 'Refused', 'TimedOut', 'Failed'] },
    wakeOutcome: { type: 'string' },
    reason: { type: 'string' },
    podId: nullableString,
    gpuId: nullableString,
    pricePerHour: nullableNumber,
  },
};

export const POD_STATUS_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    configured: { type: 'boolean' },
    status: {
      type: 'string',
      enum: ['PROVISIONING', 'STARTING', 'RUNNING', 'EXITED', 'ERROR', 'TERMINATED', 'UNKNOWN'],
    },
    isRunning: { type: 'boolean', description: 'RUNNING with at least one GPU: the only state that serves' },
    podId: nullableString,
    proxyUrl: { ...nullableString, description: 'set whenever a pod is named; check isRunning too' },
    podsOnVolume: { type: 'integer' },
    datacenter: { type: 'string' },
    lookup: { type: 'string', enum: ['FOUND', 'NOT_FOUND', 'UNREADABLE', 'UNCONFIGURED'] },
    readySince: { ...nullableString, format: 'date-time' },
    wake: WAKE_PROGRESS_SCHEMA,
    lastWake: LAST_WAKE_SCHEMA,
    idleStopAt: { ...nullableString, format: 'date-time' },
    runtimeCapAt: { ...nullableString, format: 'date-time' },
    keepAliveUntil: {
      ...nullableString,
      format: 'date-time',
      description: 'idle stop held off until then; boot grace and the runtime cap still apply',
    },
  },
};

export const KEEP_ALIVE_REQUEST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['minutes'],
  properties: {
    minutes: {
      type: 'number',
      exclusiveMinimum: true,
      minimum: 0,
      maximum: 1440,
      description: 'how long to hold off the idle stop, from now; a JSON number, decimals allowed',
    },
  },
};

export const KEEP_ALIVE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    keepAliveUntil: { ...nullableString, format: 'date-time', description: 'null after DELETE' },
  },
};

export const POD_LIST_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { pods: { type: 'array', items: POD_STATUS_SCHEMA } },
};

export const HISTORY_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    actions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time' },
          action: { type: 'string', enum: ['Start', 'Create', 'Terminate', 'Stop'] },
          podId: nullableString,
          gpuId: nullableString,
          pricePerHour: nullableNumber,
          httpStatus: { type: 'integer' },
          ok: { type: 'boolean' },
          trigger: { type: 'string' },
          detail: nullableString,
        },
      },
    },
    wakes: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
};
