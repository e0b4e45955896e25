import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

export const DOCS_PATH = 'api/docs';

/** The OpenAPI document, generated from the controllers and DTOs; never written by hand. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Seedling Propagation Centre API')
    .setDescription(
      'REST API of the online shop of the Seedling Propagation Centre, Kiambu. Every answer carries ' +
        '`success` and `message`; errors are `{ success: false, message, statusCode, errors? }`. ' +
        'Money is whole Kenyan shillings (KES); dates are ISO 8601 in UTC.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  return SwaggerModule.createDocument(app, config);
}
