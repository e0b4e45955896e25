import { runSaga, SAGA_DONE, type SagaStep } from './saga';

type Log = string[];
const step = (name: string, fail = false, undo: boolean | void = undefined): SagaStep<Log> => ({
  name,
  invoke: (log) => {
    if (fail) throw new Error(`${name} failed`);
    log.push(name);
  },
  compensate: (log) => {
    log.push(`undo ${name}`);
    return undo;
  },
});

describe('runSaga', () => {
  it('takes every step in order', async () => {
    expect(await runSaga([step('a'), step('b')], [])).toEqual(['a', 'b']);
  });

  it('undoes the steps done, in reverse, and throws the failure on', async () => {
    const log: Log = [];
    await expect(runSaga([step('a'), step('b'), step('c', true)], log)).rejects.toThrow('c failed');
    expect(log).toEqual(['a', 'b', 'undo b', 'undo a']);
  });

  it('leaves the steps before an undo that is not its own', async () => {
    const log: Log = [];
    await expect(
      runSaga([step('a'), step('b', false, false), step('c', true)], log),
    ).rejects.toThrow();
    expect(log).toEqual(['a', 'b', 'undo b']);
  });

  it('ends where a step says it is done', async () => {
    const early: SagaStep<Log> = { name: 'early', invoke: () => SAGA_DONE };
    expect(await runSaga([step('a'), early, step('b')], [])).toEqual(['a']);
  });
});
