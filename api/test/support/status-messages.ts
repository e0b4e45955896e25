/**
 * A supertest `.expect(status)` that fails says what the API answered, not only its status: a 409
 * seen once in a CI log is then a message to read, not a guess.
 */
import { Test } from 'supertest';

type AssertStatus = (
  status: number,
  res: { status: number; body: unknown; text?: string },
) => Error | undefined;
const proto = Test.prototype as unknown as { _assertStatus: AssertStatus };
const assertStatus = proto._assertStatus;
proto._assertStatus = function (this: unknown, status, res) {
  const error = assertStatus.call(this, status, res);
  if (error) {
    const body =
      res.body && Object.keys(res.body).length ? JSON.stringify(res.body) : (res.text ?? '');
    error.message += `: ${body.slice(0, 600)}`;
  }
  return error;
};
