import { eventDocument, SseParser } from './sse-parser';

describe(SseParser.name, () => {
  it('dispatches on a blank line with the id, the event name and the data', () => {
    const sut = new SseParser();
    expect(sut.push('id: 7\nevent: phase\ndata: {"phase":"Ready"}\n\n')).toEqual([
      { id: '7', event: 'phase', data: '{"phase":"Ready"}' },
    ]);
    expect(sut.lastId).toBe('7');
  });

  it('joins data lines, defaults the event name to message, and keeps the last id for later events', () => {
    const sut = new SseParser();
    const events = sut.push('id: 1\ndata: a\ndata: b\n\ndata: c\n\n');
    expect(events).toEqual([
      { id: '1', event: 'message', data: 'a\nb' },
      { id: '1', event: 'message', data: 'c' },
    ]);
  });

  it('reassembles events split across chunks, at any byte, with CRLF or CR line ends', () => {
    const stream = 'id: 2\r\nevent: stop\r\ndata: {"trigger":"idle"}\r\n\r\nid: 3\rdata: x\r\r';
    for (let cut = 0; cut <= stream.length; cut++) {
      const sut = new SseParser();
      const events = [...sut.push(stream.slice(0, cut)), ...sut.push(stream.slice(cut))];
      expect(events).toEqual([
        { id: '2', event: 'stop', data: '{"trigger":"idle"}' },
        { id: '3', event: 'message', data: 'x' },
      ]);
    }
  });

  it('ignores comments (heartbeats), unknown fields and events without data', () => {
    const sut = new SseParser();
    expect(sut.push(': keep-alive\n\nretry: 1000\nevent: empty\n\nfoo: bar\ndata\n\n')).toEqual([
      { id: null, event: 'message', data: '' },
    ]);
  });

  it('does not dispatch an event until its blank line arrives', () => {
    const sut = new SseParser();
    expect(sut.push('data: half')).toEqual([]);
    expect(sut.push('\n')).toEqual([]);
    expect(sut.push('\n')).toEqual([{ id: null, event: 'message', data: 'half' }]);
  });
});

describe(eventDocument.name, () => {
  it('parses JSON data and keeps other data as text', () => {
    expect(eventDocument({ id: '1', event: 'phase', data: '{"a":1}' })).toEqual({
      id: '1',
      event: 'phase',
      data: { a: 1 },
    });
    expect(eventDocument({ id: null, event: 'message', data: 'plain' })).toEqual({
      id: null,
      event: 'message',
      data: 'plain',
    });
  });
});
