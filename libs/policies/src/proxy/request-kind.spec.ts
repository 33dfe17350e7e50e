import { classifyProxyRequest, type ProxyRequestKind } from './request-kind';

describe(classifyProxyRequest.name, () => {
  describe('inference routes: a POST makes the model work', () => {
    it.each<[string]>([
      ['/v1/chat/completions'],
      ['/v1/completions'],
      ['/v1/embeddings'],
      ['/v1/responses'],
      ['/v1/rerank'],
      ['/v1/score'],
      ['/v1/pooling'],
      ['/v1/classify'],
      ['/v1/audio/transcriptions'],
      ['/v1/audio/translations'],
      ['/v1/messages'],
    ])('POST %s → model-work', (path) => {
      expect(classifyProxyRequest('POST', path)).toBe('model-work');
    });
  });

  describe('the same routes read with any other method never wake', () => {
    const paths = ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/rerank'];
    const methods = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'];
    it.each(methods.flatMap((method) => paths.map((path) => [method, path] as const)))(
      '%s %s → metadata',
      (method, path) => {
        expect(classifyProxyRequest(method, path)).toBe('metadata');
      },
    );
  });

  describe('the model list', () => {
    it.each<[string, string, ProxyRequestKind]>([
      ['GET', '/v1/models', 'model-list'],
      ['GET', '/v1/models/', 'model-list'],
      ['GET', '/v1/models//', 'model-list'],
      ['GET', '/v1/models?limit=5', 'model-list'],
      ['GET', '/v1/models/?x=1', 'model-list'],
      ['GET', '/v1/models#top', 'model-list'],
      ['GET', '/V1/Models', 'model-list'],
      ['get', '/v1/models', 'model-list'],
      // One model by id, a prefix or a longer name are other reads, answered only while ready.
      ['GET', '/v1/models/Qwen%2FQwen2.5-32B-Instruct-AWQ', 'metadata'],
      ['GET', '/v1/models/qwen', 'metadata'],
      ['GET', '/v1/modelsx', 'metadata'],
      ['GET', '/v1/model', 'metadata'],
      // Only GET is the list: HEAD has no body to answer from, the rest are not reads of it.
      ['HEAD', '/v1/models', 'metadata'],
      ['OPTIONS', '/v1/models', 'metadata'],
      ['DELETE', '/v1/models/ft-1', 'metadata'],
      // A POST to the list runs no model on any server.
      ['POST', '/v1/models', 'metadata'],
      ['POST', '/v1/models/', 'metadata'],
    ])('%s %s → %s', (method, path, expected) => {
      expect(classifyProxyRequest(method, path)).toBe(expected);
    });
  });

  describe('POSTs that run no model', () => {
    it.each<[string]>([
      ['/v1/tokenize'],
      ['/v1/detokenize'],
      ['/v1/Tokenize'],
      ['/v1/detokenize/'],
      ['/v1/tokenize?add_special_tokens=true'],
      ['/v1/load_lora_adapter'],
      ['/v1/unload_lora_adapter'],
      ['/v1/responses/resp_123/cancel'],
      ['/v1/responses/resp_123/cancel/'],
    ])('POST %s → metadata', (path) => {
      expect(classifyProxyRequest('POST', path)).toBe('metadata');
    });
  });

  describe('other reads never wake', () => {
    it.each<[string, string]>([
      ['GET', '/v1/responses/resp_123'],
      ['GET', '/v1/responses/resp_123/input_items'],
      ['DELETE', '/v1/responses/resp_123'],
      ['GET', '/v1/files'],
      ['GET', '/v1/'],
      ['GET', '/v1/health'],
      ['GET', '/v1/version'],
      ['GET', '/v1/tokenize'],
      ['GET', '/v1/nonsense'],
      // A browser's CORS preflight is not the request it precedes.
      ['OPTIONS', '/v1/chat/completions'],
      ['PUT', '/v1/anything'],
      ['PATCH', '/v1/anything'],
      ['', '/v1/chat/completions'],
      ['CONNECT', '/v1/chat/completions'],
    ])('%s %s → metadata', (method, path) => {
      expect(classifyProxyRequest(method, path)).toBe('metadata');
    });
  });

  describe('an unknown POST wakes: it may be an inference route of a server we do not know', () => {
    it.each<[string]>([
      ['/v1/nonsense'],
      ['/v1/'],
      ['/v1/chat/completions/'],
      ['/v1/CHAT/COMPLETIONS'],
      ['/v1/chat/completions?stream=true'],
      ['/v1/completions#x'],
      // Near misses of the non-work routes stay work: only the exact routes are exempt.
      ['/v1/tokenizer'],
      ['/v1/tokenize/extra'],
      ['/v1/models/qwen'],
      ['/v1/models/qwen/completions'],
      ['/v1/responses/resp_123'],
      ['/v1/responses/a/b/cancel'],
      ['/v1/responses/resp_123/cancel/extra'],
      ['/v1/responses/resp_123/cancelled'],
      ['/v1/load_lora_adapters'],
      // Anchored at the start too: a non-work route under another prefix is not that route.
      ['/x/v1/tokenize'],
      ['/x/v1/models'],
      ['/x/v1/unload_lora_adapter'],
      ['/x/v1/responses/resp_123/cancel'],
      // Percent-encoding is not decoded: an encoded route is unknown, so it wakes.
      ['/v1/%74okenize'],
    ])('POST %s → model-work', (path) => {
      expect(classifyProxyRequest('POST', path)).toBe('model-work');
    });

    it('the method is read case-insensitively', () => {
      expect(classifyProxyRequest('post', '/v1/chat/completions')).toBe('model-work');
      expect(classifyProxyRequest('Post', '/v1/tokenize')).toBe('metadata');
    });
  });
});
