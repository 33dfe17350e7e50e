import { Controller, Get, Headers, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  POD_EVENT_RETENTION,
  PodEventReader,
  errorMessage,
  type AppLogger,
  type PodEvent,
  boundedRead,
} from '@podwarden/platform';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import { problem } from '../http/problem';
import { ConfiguredPod, PodRoute } from '../pods/pod-route.decorator';
import { EventStreamSession, type SessionTiming } from './event-stream-session';
import { EVENT_STREAM_TIMING } from './event-stream-timing.constant';
import { PodEventHub } from './pod-event-hub';

@ApiTags('pods')
@Controller('api/pods')
export class PodEventsController {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(EVENT_STREAM_TIMING) private readonly timing: SessionTiming,
    private readonly hub: PodEventHub,
    private readonly reader: PodEventReader,
  ) {}

  @Get(':name/events')
  @PodRoute()
  @ApiOperation({
    summary:
      'Server-sent events of the pod: wake progress and outcome, phase changes, stops, keep-alive, budget refusals',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'resume after this event id: every event still retained after it is sent first',
  })
  @ApiQuery({
    name: 'lastEventId',
    required: false,
    description:
      'the same, for a first connection (EventSource cannot set headers); a stream id such as `1767225600000-0` replays from that time. The header wins.',
  })
  @ApiResponse({
    status: 200,
    description: 'an endless text/event-stream; `id:` on every event, a heartbeat comment every 15 s',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiProblemResponse(503, 'Redis did not answer; retry shortly')
  async events(
    @ConfiguredPod() pod: PodConfig,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('lastEventId') queryLastEventId: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const session = new EventStreamSession(
      { write: (frame) => response.write(frame), end: () => response.end() },
      lastEventId ?? (typeof queryLastEventId === 'string' ? queryLastEventId : null),
      this.timing,
    );
    const listener = { deliver: (e: PodEvent) => session.deliver(e), end: () => session.close() };
    let unsubscribe: () => void;
    let replay: PodEvent[];
    try {
      // Subscribed before the replay is read: nothing published in between is lost.
      unsubscribe = await this.hub.subscribe(pod.name, listener);
      replay = await this.replay(pod, session.replayFrom).catch((error: unknown) => {
        unsubscribe();
        throw error;
      });
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'event stream not opened');
      throw problem(
        503,
        'events-unavailable',
        'Event stream unavailable',
        'Redis did not answer; retry shortly',
        {
          name: pod.name,
        },
      );
    }
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    // nginx buffers responses unless told otherwise; a buffered event stream is a silent one.
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    const close = (): void => {
      unsubscribe();
      session.close();
    };
    // The response's close, not the request's: it fires when the client goes away.
    response.on('close', close);
    session.open(replay);
    if (request.destroyed) close();
  }

  private async replay(pod: PodConfig, from: string | null): Promise<PodEvent[]> {
    if (from === null) return [];
    const read = this.reader.after(pod.name, from, POD_EVENT_RETENTION);
    return boundedRead(this.config, read, 'event replay');
  }
}
