/** What a step's `invoke` answers to end its saga there, the steps after it not taken. */
export const SAGA_DONE = Symbol('saga done');

/** One named step of a saga: what it does, and how it is undone when a later step fails. */
export interface SagaStep<C> {
  name: string;
  /** Does the step's work on the saga's context (throws when it cannot: nothing of it is left). */
  invoke(ctx: C): Promise<void | typeof SAGA_DONE> | void | typeof SAGA_DONE;
  /**
   * Undoes the step's work once a later step failed. Answers false when the undo is no longer
   * this saga's (another process, the reconciler, has it): the steps before are then left too.
   */
  compensate?(ctx: C): Promise<void | boolean> | void | boolean;
}

/**
 * Runs the steps in order on one context; when one fails, the steps done are undone in reverse
 * (each by its `compensate`) and the failure is thrown on. A failing undo is thrown instead: what
 * is left is the crash recovery's, as after a crash.
 */
export async function runSaga<C>(steps: readonly SagaStep<C>[], ctx: C): Promise<C> {
  const done: SagaStep<C>[] = [];
  try {
    for (const step of steps) {
      const answer = await step.invoke(ctx);
      done.push(step);
      if (answer === SAGA_DONE) break;
    }
    return ctx;
  } catch (error) {
    for (const step of done.reverse())
      if (step.compensate && (await step.compensate(ctx)) === false) break;
    throw error;
  }
}
