import { TIMINGS } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';

const SLIDES = ['hero-slide-a', 'hero-slide-b', 'hero-slide-c'] as const;

/** Three drawn backgrounds (two animated like looping muted clips, then a still), 7 s each, fading. */
export function HeroCarousel() {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return;
    const t = setInterval(
      () => setIndex((i) => (i + 1) % SLIDES.length),
      TIMINGS.heroCarouselIntervalMs,
    );
    return () => clearInterval(t);
  }, [paused]);
  return (
    <section className="hero" aria-roledescription="carousel" aria-label="Highlights">
      {SLIDES.map((cls, i) => (
        <div
          key={cls}
          className={`hero-slide ${cls}${i === index ? ' active' : ''}`}
          aria-hidden={i !== index}
        />
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
