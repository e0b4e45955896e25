import { assetUrl, srcSet } from './api-client';

/** The `sizes` of a product card's picture (shop grid, home's featured products). */
export const CARD_PICTURE_SIZES = '(max-width: 768px) 50vw, 280px';
/** The `sizes` of a product page's picture. */
export const DETAIL_PICTURE_SIZES = '(max-width: 768px) 100vw, 50vw';
/** How many cards at the top of the shop's grid are fetched first: its first row on a phone. */
export const EAGER_CARDS = 2;

/** A product picture's address, widths and `sizes`, as its `<img>` and its preload both give them. */
export function productPicture(
  src: string,
  images: Record<string, string> | null | undefined,
  sizes: string,
) {
  const widths = srcSet(images);
  return { src: assetUrl(src), srcSet: widths, sizes: widths ? sizes : undefined };
}

/**
 * Starts a picture's download at high priority before the screen showing it has rendered: a phone
 * then fetches the page's largest picture as soon as the data naming it is in, beside the render,
 * not after it. The same address, widths and sizes as the `<img>` (productPicture), so the picture
 * is fetched once. Nothing for an empty address (the drawn placeholder).
 */
export function preloadPicture({ src, srcSet: widths, sizes }: ReturnType<typeof productPicture>) {
  if (!src) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', 'image');
  link.href = src;
  link.setAttribute('fetchpriority', 'high');
  if (widths) link.setAttribute('imagesrcset', widths);
  if (sizes) link.setAttribute('imagesizes', sizes);
  document.head.append(link);
}
