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

  it('answers 503 in words, unlogged, when the database does not answer in time or is away', async () => {
    const { MongoNetworkTimeoutError, MongoServerSelectionError, MongoNetworkError } =
      await import('mongodb');
    let written = '';
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.toString();
          done();
        },
      }),
    );
    const sent: { statusCode: number; code: string; message: string }[] = [];
    const reply = {
      header: () => reply,
      status: () => reply,
      send: (body: (typeof sent)[number]) => sent.push(body),
    };
    const host = {
      switchToHttp: () => ({
        getRequest: () => ({ id: 'req-2', method: 'GET', url: '/api/orders' }),
        getResponse: () => reply,
      }),
    } as unknown as ArgumentsHost;
    const filter = new AllExceptionsFilter(logger);
    filter.catch(new MongoNetworkTimeoutError('connection 2 to 127.0.0.1:35739 timed out'), host);
    filter.catch(new MongoNetworkError('connection closed'), host);
    filter.catch(new MongoServerSelectionError('Server selection timed out', {} as never), host);
    expect(sent.map((b) => [b.statusCode, b.code])).toEqual([
      [503, 'SERVICE_UNAVAILABLE'],
      [503, 'SERVICE_UNAVAILABLE'],
      [503, 'SERVICE_UNAVAILABLE'],
    ]);
    expect(sent[0]!.message).toContain('database unreachable');
    expect(written).toBe('');
  });
});
