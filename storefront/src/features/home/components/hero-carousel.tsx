import { TIMINGS } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import rows from '../../../assets/art/hero-rows.svg';
import seedling from '../../../assets/art/hero-seedling.svg';
import trays from '../../../assets/art/hero-trays.svg';
import { paths } from '../../../config/paths';
import { assetUrl } from '../../../lib/api-client';
import { mayPlayVideo } from '../../../lib/media';
import type { SitePicture } from '../../../lib/site-pictures';
import '../home.css';

/** One background of the hero: a picture, and a video only where the shop supplies one. */
export interface HeroSlide {
  image: string;
  /** A looping muted clip; its picture above is the poster shown first. */
  video?: string;
  /** The still picture fades in more slowly than the clips (spec: 1 s, 4 s for a photo). */
  kind: 'clip' | 'photo';
}

/** Drawn seedlings and trays, used until the shop uploads its own photos. */
export const DEFAULT_HERO_SLIDES: HeroSlide[] = [
  { image: trays, kind: 'clip' },
  { image: rows, kind: 'clip' },
  { image: seedling, kind: 'photo' },
];

const HERO_SLOTS = ['hero-1', 'hero-2', 'hero-3'] as const;

/**
 * The hero's slides with the shop's own photos (and clips) where it uploaded them; each slot it did
 * not fill keeps its drawing. A slide keeps its place and fade whichever picture it shows.
 */
export function heroSlides(
  pictures: Partial<Record<(typeof HERO_SLOTS)[number], SitePicture>>,
): HeroSlide[] {
  return DEFAULT_HERO_SLIDES.map((drawing, i) => {
    const own = pictures[HERO_SLOTS[i]!];
    if (!own) return drawing;
    return {
      kind: drawing.kind,
      image: assetUrl(own.url),
      ...(own.video ? { video: assetUrl(own.video) } : {}),
    };
  });
}

/** Three backgrounds, 7 s each, fading; the first picture is the page's largest paint. */
export function HeroCarousel({ slides = DEFAULT_HERO_SLIDES }: { slides?: HeroSlide[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [videoOk] = useState(() => mayPlayVideo());
  useEffect(() => {
    if (paused) return;
    const t = setInterval(
      () => setIndex((i) => (i + 1) % slides.length),
      TIMINGS.heroCarouselIntervalMs,
    );
    return () => clearInterval(t);
  }, [paused, slides.length]);
  return (
    <section className="hero" aria-roledescription="carousel" aria-label="Highlights">
      {slides.map((slide, i) => (
        <div
          key={i}
          className={`hero-slide hero-${slide.kind}${i === index ? ' active' : ''}`}
          aria-hidden="true"
          data-testid="hero-slide"
        >
          {slide.video && videoOk && i === index ? (
            <video
              src={slide.video}
              poster={slide.image}
              autoPlay
              muted
              loop
              playsInline
              preload="none"
            />
          ) : (
            <img
              src={slide.image}
              alt=""
              width={1200}
              height={600}
              decoding="async"
              fetchPriority={i === 0 ? 'high' : 'low'}
            />
          )}
        </div>
      ))}
      <div className="hero-content">
        <h1>Premium Quality Seedlings</h1>
        <p>Beautiful seedlings to bring life to your space</p>
        <Link to={paths.shop} className="btn btn-light">
          Shop Now
        </Link>
      </div>
      <button
        type="button"
        className="hero-pause"
        aria-pressed={paused}
        aria-label={paused ? 'Play carousel' : 'Pause carousel'}
        onClick={() => setPaused((p) => !p)}
      >
        {paused ? '▶' : '❚❚'}
      </button>
    </section>
  );
}
