import { CARD_PICTURE_SIZES, productPicture } from '../lib/picture-preload';

/** A lazy, sized product picture using the API's WebP widths; a drawn seedling when there is none. */
export function ProductImage({
  src,
  images,
  alt,
  width,
  height,
  sizes = CARD_PICTURE_SIZES,
  eager = false,
}: {
  src: string;
  images?: Record<string, string> | null;
  alt: string;
  width: number;
  height: number;
  sizes?: string;
  eager?: boolean;
}) {
  if (!src) {
    return (
      <svg
        className="img-placeholder"
        width={width}
        height={height}
        viewBox="0 0 40 40"
        role="img"
        aria-label={alt}
      >
        <rect width="40" height="40" fill="#e6f2dc" />
        <path
          d="M20 32V20m0 2c-6 0-8-4-8-9 6 0 8 4 8 9zm0 1c0-6 3-9 9-9 0 6-3 9-9 9z"
          fill="#5c9a45"
        />
      </svg>
    );
  }
  const picture = productPicture(src, images, sizes);
  return (
    <img
      src={picture.src}
      srcSet={picture.srcSet}
      sizes={picture.sizes}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      // The first pictures of a page are its largest paint on a phone: fetched first.
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
}
