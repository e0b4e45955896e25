import { Writable } from 'node:stream';
import type { ArgumentsHost } from '@nestjs/common';
import pino from 'pino';
import { AllExceptionsFilter } from './all-exceptions.filter';

describe('AllExceptionsFilter', () => {
  it('logs an unexpected error with the URL redacted, the M-Pesa callback token left out', () => {
    let written = '';
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.toString();
          done();
        },
      }),
    );
    const token = 'live-callback-token-9f8e7d6c5b4a39281706';
    const request = {
      id: 'req-1',
      method: 'POST',
      url: `/api/payments/mpesa/c2b/confirmation/${token}`,
    };
    const sent: unknown[] = [];
    const reply = {
      header: () => reply,
      status: () => reply,
      send: (body: unknown) => sent.push(body),
    };
    const host = {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
    } as unknown as ArgumentsHost;

    new AllExceptionsFilter(logger).catch(new Error('the disk is full'), host);

    expect(sent).toEqual([expect.objectContaining({ statusCode: 500, code: 'INTERNAL_ERROR' })]);
    const line = JSON.parse(written) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'Unexpected error',
      requestId: 'req-1',
      url: '/api/payments/mpesa/c2b/confirmation/[redacted]',
    });
    expect(written).not.toContain(token);
  });
});
