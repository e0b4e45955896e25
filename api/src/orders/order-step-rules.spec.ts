import { ConflictException } from '@nestjs/common';
import type { OrderStep, StepContext } from './order-actions';
import type { OrderRecord } from './order.types';
import { assertStepAllowed, invokeWrites, stepActors, stepStart } from './order-step-rules';

const system = { id: 'system', role: 'system', fullName: 'The shop' } as const;
const staff = { id: 'u1', role: 'staff', fullName: 'Grace Njeri' } as const;

const booking = (state: string) =>
  ({ purchaseNumber: 'SPC-1', booking: { state } }) as unknown as OrderRecord;

const ctxOf = (order: OrderRecord, actor: StepContext<void>['actor'] = system) =>
  ({ order, actor, input: undefined }) as unknown as StepContext<void>;

const stepOf = (rule: OrderStep['rule'], more: Partial<OrderStep> = {}): OrderStep => ({
  rule,
  event: 'booking.affected',
  prepare: () => ({}),
  audit: { action: 'test', text: () => 'test' },
  ...more,
});

describe("the order runner's step rules", () => {
  it('takes writes in order and undoes those done, last first, when a later one fails', async () => {
    const log: string[] = [];
    const write = (name: string, fails = false) => ({
      name,
      invoke: async () => {
        if (fails) throw new Error(`${name} refused`);
        log.push(`do ${name}`);
      },
      compensate: async () => {
        log.push(`undo ${name}`);
      },
    });
    await expect(
      invokeWrites(
        [write('claim'), write('hold'), write('third', true)],
        ctxOf(booking('Affected')),
      ),
    ).rejects.toThrow('third refused');
    expect(log).toEqual(['do claim', 'do hold', 'undo hold', 'undo claim']);

    log.length = 0;
    const undo = await invokeWrites([write('claim'), write('hold')], ctxOf(booking('Affected')));
    await undo();
    expect(log).toEqual(['do claim', 'do hold', 'undo hold', 'undo claim']);
  });

  it('a booking step starts from the booking states its action is taken in, by their actors', () => {
    const affect = stepOf({ booking: 'affect' });
    expect(stepActors(affect)).toEqual(['system']);
    expect(stepStart(affect, system)).toEqual({
      'booking.state': { $in: ['Deposit due', 'Booked', 'Balance due', 'Paid'] },
    });
    expect(() => assertStepAllowed(affect, ctxOf(booking('Booked')))).not.toThrow();
    expect(() => assertStepAllowed(affect, ctxOf(booking('Refunded')))).toThrow(ConflictException);
  });

  it("a booking state that does not take the step answers the step's own words", () => {
    const move = stepOf(
      { booking: 'move' },
      { refusal: ({ order }) => `booking ${order.purchaseNumber} cannot move` },
    );
    expect(() => assertStepAllowed(move, ctxOf(booking('Affected'), staff))).not.toThrow();
    expect(() => assertStepAllowed(move, ctxOf(booking('Booked'), staff))).toThrow(
      'booking SPC-1 cannot move',
    );
  });
});
