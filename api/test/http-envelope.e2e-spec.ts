import { connect, type Socket } from 'node:net';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ERROR_CODE_LIST } from '@spc/shared-contracts';
import { IsInt, IsNotEmpty, IsString, Min } from 'class-validator';
import { Public } from '../src/common/access.decorators';
import { loadConfig } from '../src/config/app-config';
import { freePort } from './support/api-process';
import { createTestApp, type TestApp } from './support/test-app';
import { sleep } from './support/wait';

class ProbeDto {
  @IsString()
  @IsNotEmpty({ message: 'Full Name is required' })
  fullName!: string;

  @IsInt()
  @Min(1)
  quantity!: number;
}

/** Routes that exist only in this test, to reach the global pipe, filter and body limit. */
@Controller('probe')
@Public()
class ProbeController {
  @Post()
  echo(@Body() body: ProbeDto) {
    return { success: true, message: 'ok', received: body };
  }

  @Get('boom')
  boom() {
    throw new Error('internal detail: connection string mongodb://secret');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('the HTTP envelope, limits and headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ name: 'envelope', imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('answers an unknown route with the error envelope and 404', async () => {
    const res = await t.http().get('/api/no-such-thing').expect(404);
    expect(res.body).toEqual({
      success: false,
      message: 'Cannot GET /api/no-such-thing',
      statusCode: 404,
      code: 'NOT_FOUND',
    });
  });

  it('accepts a valid body', async () => {
    const res = await t
      .http()
      .post('/api/probe')
      .send({ fullName: 'Wanjiku', quantity: 2 })
      .expect(201);
    expect(res.body.received).toEqual({ fullName: 'Wanjiku', quantity: 2 });
  });

  it('answers a validation failure with 400, the first message and the field errors', async () => {
    const res = await t.http().post('/api/probe').send({ fullName: '', quantity: 0 }).expect(400);
    expect(res.body).toMatchObject({
      success: false,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Full Name is required',
    });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'fullName', messages: ['Full Name is required'] },
        { field: 'quantity', messages: ['quantity must not be less than 1'] },
      ]),
    );
  });

  it('refuses an operator object where a string belongs', async () => {
    const res = await t
      .http()
      .post('/api/probe')
      .send({ fullName: { $ne: null }, quantity: 1 })
      .expect(400);
    expect(res.body.message).toBe('fullName must be a string');
  });

  it('refuses fields the route does not know', async () => {
    const res = await t
      .http()
      .post('/api/probe')
      .send({ fullName: 'A', quantity: 1, role: 'admin' })
      .expect(400);
    expect(res.body.message).toBe('property role should not exist');
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t
      .http()
      .post('/api/probe')
      .set('Content-Type', 'application/json')
      .send('{"fullName": ')
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: "Body is not valid JSON but content-type is set to 'application/json'",
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('answers 413 to a 2 MB JSON body', async () => {
    const big = { fullName: 'x'.repeat(2 * 1024 * 1024), quantity: 1 };
    const res = await t.http().post('/api/probe').send(big).expect(413);
    expect(res.body).toEqual({
      success: false,
      message: 'Request body is too large',
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('hides an unexpected error behind a generic message with a reference', async () => {
    const res = await t.http().get('/api/probe/boom').expect(500);
    expect(res.body.success).toBe(false);
    expect(res.body.statusCode).toBe(500);
    expect(res.body.message).toMatch(/^Something went wrong on our side/);
    expect(JSON.stringify(res.body)).not.toMatch(/secret|internal detail|stack/);
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
    expect(res.body.code).toBe('INTERNAL_ERROR');
  });

  it('answers an expired access token with TOKEN_EXPIRED, a missing one with UNAUTHENTICATED', async () => {
    const missing = await t.http().get('/api/users/profile').expect(401);
    expect(missing.body.code).toBe('UNAUTHENTICATED');
    const expired = new JwtService({ secret: t.config.jwt.accessSecret }).sign(
      { sub: '665f1c2b9d3e4a0012345678', role: 'customer', fullName: 'Wanjiku' },
      { expiresIn: -10 },
    );
    const res = await t.http().get('/api/users/profile').set('Authorization', `Bearer ${expired}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_EXPIRED');
  });

  it('lists every code it answers with in shared-contracts and in the OpenAPI document', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body;
    expect(doc.components.schemas.ErrorCode.enum).toEqual(ERROR_CODE_LIST);
    expect(doc.components.schemas.ErrorResponseDto.required).toContain('code');
  });

  it('keeps a plain request id given by the caller and replaces a hostile one', async () => {
    const kept = await t.http().get('/api/health').set('X-Request-Id', 'checkout-42');
    expect(kept.headers['x-request-id']).toBe('checkout-42');
    const replaced = await t.http().get('/api/health').set('X-Request-Id', '<script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows the storefront and back-office origins and refuses any other', async () => {
    for (const origin of [t.config.storefrontUrl, t.config.backofficeUrl]) {
      const res = await t
        .http()
        .options('/api/health')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'GET');
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    const evil = await t
      .http()
      .options('/api/health')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const simple = await t.http().get('/api/health').set('Origin', 'https://evil.example');
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends security headers', async () => {
    const res = await t.http().get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('request and connection timeouts', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({
      name: 'envelope_timeouts',
      env: { HTTP_CONNECTION_TIMEOUT_MS: '1500', HTTP_REQUEST_TIMEOUT_MS: '3000' },
    });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('sets both timeouts by default', () => {
    const defaults = loadConfig({});
    expect(defaults.http).toEqual({ requestTimeoutMs: 60_000, connectionTimeoutMs: 120_000 });
  });

  it('closes a connection that sends part of a body and then nothing', async () => {
    const socket: Socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
    });
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    const after = await Promise.race([closed, sleep(20_000).then(() => -1)]);
    socket.destroy();
    expect(after).toBeGreaterThan(0);
  });
});
