import type { FastifyReply } from 'fastify';
import { isSerializedAnswer, SerializedAnswers } from './serialized-answers';

const reply = () => {
  const headers: Record<string, string> = {};
  const r = {
    headers,
    type(value: string) {
      headers['content-type'] = value;
      return r;
    },
  };
  return r as unknown as FastifyReply & { headers: Record<string, string> };
};

describe('SerializedAnswers', () => {
  it('serialises a value once, as bytes that say they are a whole answer', () => {
    let built = 0;
    const answers = new SerializedAnswers((v: { n: number }) => {
      built += 1;
      return { success: true, ...v };
    });
    const value = { n: 1 };
    const one = reply();
    const two = reply();
    expect(answers.send(one, value).toString()).toBe('{"success":true,"n":1}');
    expect(answers.send(two, value)).toBe(answers.send(one, value));
    expect(built).toBe(1);
    expect(one.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(isSerializedAnswer(answers.send(one, value))).toBe(true);
    expect(isSerializedAnswer({ success: true })).toBe(false);
    expect(isSerializedAnswer('text')).toBe(false);
  });
});
