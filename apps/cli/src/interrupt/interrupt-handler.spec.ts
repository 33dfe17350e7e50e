import { EventEmitter } from 'node:events';
import { InterruptHandler } from './interrupt-handler';

describe(InterruptHandler.name, () => {
  it('the first Ctrl-C aborts the signal, the second calls onSecond, and every later one too', () => {
    const source = new EventEmitter();
    const onSecond = jest.fn();
    const sut = new InterruptHandler(source, onSecond).install();

    expect(sut.signal.aborted).toBe(false);
    source.emit('SIGINT');
    expect(sut.signal.aborted).toBe(true);
    expect(onSecond).not.toHaveBeenCalled();
    source.emit('SIGINT');
    source.emit('SIGTERM');
    expect(onSecond).toHaveBeenCalledTimes(2);
  });

  it('SIGTERM counts as an interrupt; dispose stops listening', () => {
    const source = new EventEmitter();
    const sut = new InterruptHandler(source, jest.fn()).install();
    source.emit('SIGTERM');
    expect(sut.signal.aborted).toBe(true);
    sut.dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});
