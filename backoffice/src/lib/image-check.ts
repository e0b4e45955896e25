import { IMAGE_MIME_TYPES, LIMITS } from '@spc/shared-contracts';

export const IMAGE_TYPE_MESSAGE = 'Please choose a JPEG, PNG or WebP image';
export const IMAGE_SIZE_MESSAGE = 'The image must be at most 5 MB';

/** Client-side check before upload; the server checks the content again. */
export function imageProblem(file: File | null | undefined): string | undefined {
  if (!file) return undefined;
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > LIMITS.imageMaxBytes) return IMAGE_SIZE_MESSAGE;
  return undefined;
}
