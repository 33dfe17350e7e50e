import { All, Controller, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ProxyRequestHandler } from './proxy-request.handler';

/**
 * `/{name}/v1/*`: the OpenAI-compatible surface of each configured pod. The
 * body is not parsed (the app runs without a body parser): it is passed on as sent.
 */
@Controller()
export class ProxyController {
  constructor(private readonly handler: ProxyRequestHandler) {}

  @All(':name/v1/*path')
  async proxy(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    // The path after the name, query string included, exactly as the client sent it.
    const raw = req.originalUrl;
    const path = raw.slice(raw.indexOf('/v1/'));
    await this.handler.handle(name, path, req, res);
  }
}
