import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DomainEvents } from './domain-events';

/** An event of no module's (the map holds the modules' own): its name and payload as they come. */
const HAPPENED = 'test.happened' as never;

const actor = { id: 'u1', role: 'staff', fullName: 'Grace Njeri' } as const;

describe('DomainEvents', () => {
  it('answers once every listener has run, and a failing listener fails the announcement', async () => {
    const emitter = new EventEmitter2({ wildcard: true, delimiter: '.' });
    const heard: string[] = [];
    emitter.on('test.*', async () => {
      await new Promise((r) => setTimeout(r, 20));
      heard.push('module');
    });
    emitter.on('**', () => heard.push('all'));
    const events = new DomainEvents(emitter);
    await events.emit(HAPPENED, { actor } as never);
    expect(heard.sort()).toEqual(['all', 'module']);
    emitter.on('test.happened', () => {
      throw new Error('the listener broke');
    });
    await expect(events.emit(HAPPENED, { actor } as never)).rejects.toThrow('the listener broke');
  });

  it('announced in the background, a failing listener is logged, not left to end the process', async () => {
    const emitter = new EventEmitter2({ wildcard: true, delimiter: '.' });
    emitter.on('test.happened', async () => {
      throw new Error('the listener broke');
    });
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      new DomainEvents(emitter).emitInBackground(HAPPENED, { actor } as never);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).not.toHaveBeenCalled();
      expect(logged).toHaveBeenCalledWith('A listener of test.happened failed: the listener broke');
    } finally {
      process.off('unhandledRejection', unhandled);
      logged.mockRestore();
    }
  });
});
