import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { readMultipartForm } from '../common/multipart';
import { createValidationPipe } from '../common/validation';

/** The product form's file field. */
export const PRODUCT_IMAGE_FIELD = 'productImage';

export interface ProductForm<T> {
  fields: T;
  /** The uploaded image's bytes; absent when no file (or an empty one) was sent. */
  image?: Buffer;
}

// The global pipe itself, so a multipart form fails exactly like a JSON body: 400, the first
// problem as the message, every field's problems in `errors`, unknown fields refused.
const validation = createValidationPipe();

/**
 * Reads the multipart product form and validates its text fields against `metatype`. A text
 * `productImage` (the current URL sent back, or the empty field of a form without a new file) is
 * ignored: only a file replaces the image.
 */
export async function readProductForm<T extends object>(
  request: FastifyRequest,
  metatype: new () => T,
): Promise<ProductForm<T>> {
  const { fields, file } = await readMultipartForm(request);
  if (file && file.fieldname !== PRODUCT_IMAGE_FIELD) {
    throw new BadRequestException(
      `Unexpected file field "${file.fieldname.slice(0, 40)}": send the image as ${PRODUCT_IMAGE_FIELD}`,
    );
  }
  const { [PRODUCT_IMAGE_FIELD]: _ignored, ...text } = fields;
  const dto = (await validation.transform(text, { type: 'body', metatype })) as T;
  return { fields: dto, image: file && file.buffer.length > 0 ? file.buffer : undefined };
}
