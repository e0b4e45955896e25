import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { LIMITS, TOTAL_IS_LOWER_BOUND_HEADER } from '@spc/shared-contracts';
import { AppModule } from './app.module';
import { CatalogReadModel } from './catalog/read-model/catalog-read-model';
import { AccessLog } from './common/access-log';
import { applyRouteBodyLimits } from './common/body-limit';
import { answerWrongMethodWith405 } from './common/method-not-allowed';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { readJsonBodies } from './common/json-shape';
import { readFormBodies } from './privacy/form-bodies';
import { servePreparedAnswers } from './catalog/read-model/prepared-answers';
import { createRootLogger, NestPinoLogger } from './common/logger';
import { REQUEST_ID_HEADER, requestIdFor } from './common/request-id';
import { addSecurityHeaders } from './common/security-headers';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { createOpenApiDocument, DOCS_PATH } from './openapi';
import { UPLOADS_URL_PREFIX } from './storage/storage.service';

export interface CreateAppOptions {
  /** Extra modules mounted beside the application's own (tests use this for probe routes). */
  imports?: ModuleMetadata['imports'];
}

/** Builds the configured application (not yet listening); used by main, the tests and the scripts. */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One access-log line per request instead of Fastify's two.
    logController: new AccessLog(),
    bodyLimit: LIMITS.jsonBodyMaxBytes,
    // Long path parameters reach the handlers (which answer 400 in the API's own shape).
    routerOptions: { maxParamLength: 1000 },
    genReqId: requestIdFor,
    // Behind the reverse proxy the client's address is in X-Forwarded-For; rate limits key on it.
    trustProxy: config.trustProxy,
    // A request must arrive whole within requestTimeout; a silent connection closes after
    // connectionTimeout. Without them a client sending a body slowly holds its connection forever
    // (and keeps a graceful shutdown waiting).
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, options.imports),
    adapter,
    {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
      // Fastify's JSON parser, after a check of the body's shape (common/json-shape.ts), reads bodies.
      bodyParser: false,
    },
  );

  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  answerWrongMethodWith405(fastify);
  applyRouteBodyLimits(fastify);
  readJsonBodies(fastify);
  // Gateway callbacks post form fields (the SMS inbound callback); every other route refuses them.
  readFormBodies(fastify);
  // Product lists and product pages answered before are answered again from their bytes.
  servePreparedAnswers(fastify, app.get(CatalogReadModel));
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  addSecurityHeaders(fastify, {
    // The API answers JSON; the only HTML it serves is Swagger UI, which needs inline styles and scripts.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });

  await app.register(multipart, {
    // One file per form, checked again by content before anything is stored.
    limits: {
      fileSize: LIMITS.imageMaxBytes,
      files: 1,
      fields: 20,
      fieldSize: 10_000,
      parts: 25,
      headerPairs: 100,
    },
  });
  mkdirSync(path.resolve(config.uploadsDir), { recursive: true });
  // Stored uploads are named by content hash, so they never change under the same URL.
  await app.register(fastifyStatic, {
    root: path.resolve(config.uploadsDir),
    prefix: UPLOADS_URL_PREFIX,
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
    list: false,
    dotfiles: 'deny',
  });

  const allowed = new Set(config.corsOrigins);
  app.enableCors({
    origin: (origin, callback) => callback(null, !origin || allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      REQUEST_ID_HEADER,
      'isAdmin',
      'isAdminOrStaff',
    ],
    exposedHeaders: [
      'X-Total-Count',
      TOTAL_IS_LOWER_BOUND_HEADER,
      REQUEST_ID_HEADER,
      'Content-Disposition',
    ],
    maxAge: 600,
  });

  if (config.swaggerEnabled) {
    SwaggerModule.setup(DOCS_PATH, app, () => createOpenApiDocument(app), {
      jsonDocumentUrl: `${DOCS_PATH}-json`,
      customSiteTitle: 'Seedling Propagation Centre API',
    });
  }
  return app;
}
