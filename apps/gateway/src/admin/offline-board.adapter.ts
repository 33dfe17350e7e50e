import type { Request, Response, NextFunction } from 'express';
import { ExpressAdapter } from '@bull-board/express';
import type { AppViewRoute } from '@bull-board/api/typings/app';

/**
 * Bull Board's page loads Google Fonts: an error offline and a third-party request from an operator's
 * browser. It is served with no outside link; the browser's own fonts stand in.
 */
export function withoutOutsideLinks(html: string): string {
  return html.replace(/<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>\s*/gi, '');
}

/** Bull Board's Express adapter, its page rendered without outside links (withoutOutsideLinks). */
export class OfflineBoardAdapter extends ExpressAdapter {
  override setEntryRoute(route: AppViewRoute): ExpressAdapter {
    this.app[route.method](route.route, (_request: Request, response: Response, next: NextFunction) => {
      const { name, params } = route.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
      response.render(name, params, (error: Error | null, html: string) => {
        if (error) next(error);
        else response.type('html').send(withoutOutsideLinks(html));
      });
    });
    return this;
  }
}

/**
 * What the board needs and nothing more: its scripts, styles, images and API
 * from the gateway; inline styles (its loading screen and React's style
 * attributes); no inline script (its UI config is a JSON data block, not run).
 */
export const QUEUE_BOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every board answer, page, assets and API alike. */
export function queueBoardHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Content-Security-Policy', QUEUE_BOARD_CSP);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  next();
}
