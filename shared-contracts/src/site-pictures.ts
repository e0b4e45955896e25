/**
 * The places on the storefront where the shop may show its own photo instead of the drawing: the
 * three hero backgrounds, the five collections of the home page, and the About page.
 */
export const SITE_PICTURE_SLOTS = [
  'hero-1',
  'hero-2',
  'hero-3',
  'collection-vegetables',
  'collection-herbs',
  'collection-flowers',
  'collection-fruits',
  'collection-forestry',
  'about',
] as const;

export type SitePictureSlot = (typeof SITE_PICTURE_SLOTS)[number];

/** What the back office calls each place. */
export const SITE_PICTURE_LABELS: Record<SitePictureSlot, string> = {
  'hero-1': 'Home banner, first slide',
  'hero-2': 'Home banner, second slide',
  'hero-3': 'Home banner, third slide',
  'collection-vegetables': 'Collection: Vegetables',
  'collection-herbs': 'Collection: Herbs and spices',
  'collection-flowers': 'Collection: Flowers',
  'collection-fruits': 'Collection: Fruits',
  'collection-forestry': 'Collection: Forestry',
  about: 'About page',
};

/** The multipart field that carries the picture. */
export const SITE_PICTURE_FIELD = 'picture';

export function isSitePictureSlot(value: string): value is SitePictureSlot {
  return (SITE_PICTURE_SLOTS as readonly string[]).includes(value);
}

/** Only the hero backgrounds may play a video (behind the picture as its poster). */
export function slotTakesVideo(slot: SitePictureSlot): boolean {
  return slot.startsWith('hero-');
}
