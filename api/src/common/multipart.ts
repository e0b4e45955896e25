import {
  BadRequestException,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '@spc/shared-contracts';

export const IMAGE_TOO_LARGE_MESSAGE = `Images must be at most ${LIMITS.imageMaxBytes / (1024 * 1024)} MB`;

export interface MultipartForm {
  fields: Record<string, string>;
  file?: { fieldname: string; buffer: Buffer };
}

/**
 * Reads a multipart form with at most one file. The file's name and declared type are ignored (its
 * content decides what it is); a file over the limit is cut off by the parser and answered 413
 * (`tooLarge` says so: images by default).
 */
export async function readMultipartForm(
  request: FastifyRequest,
  tooLarge = IMAGE_TOO_LARGE_MESSAGE,
): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeException('Send this form as multipart/form-data');
  }
  const form: MultipartForm = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (form.file) throw new BadRequestException('Send one file only');
        form.file = { fieldname: part.fieldname, buffer: await part.toBuffer() };
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new BadRequestException('Send one file only');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new BadRequestException('The form has too many fields');
    if (error instanceof HttpException) throw error;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeException(tooLarge);
    // Anything else the parser met (no boundary, a cut-off body, a broken part) is the client's form.
    throw new BadRequestException('The form could not be read');
  }
  return form;
}
