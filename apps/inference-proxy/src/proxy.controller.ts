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
    await this.handler.handle(name, pathAfterName(req.originalUrl), req, res);
  }
}

/**
 * The path after the name, query string included, as the client sent it but for
 * the `v1` segment: the route matches it in any case, vLLM only in lower case.
 */
export function pathAfterName(originalUrl: string): string {
  const rest = originalUrl.slice(originalUrl.indexOf('/', 1));
  return `/v1${rest.slice('/v1'.length)}`;
}
