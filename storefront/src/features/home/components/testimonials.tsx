import { TIMINGS } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';

export const TESTIMONIALS = [
  {
    name: 'Wanjiku K.',
    place: 'Kiambu',
    rating: 5,
    text: 'The avocado seedlings arrived healthy and are already flowering.',
  },
  {
    name: 'Otieno M.',
    place: 'Kisumu',
    rating: 4.5,
    text: 'Quick delivery and strong tomato seedlings. Will order again.',
  },
  {
    name: 'Achieng O.',
    place: 'Nakuru',
    rating: 4,
    text: 'Good advice on spacing and watering from the team.',
  },
  {
    name: 'Kamau J.',
    place: 'Nyeri',
    rating: 5,
    text: 'Our school planted 200 forestry seedlings; nearly all took.',
  },
  {
    name: 'Mutua P.',
    place: 'Machakos',
    rating: 3.5,
    text: 'Lovely herbs; one tray was replaced without fuss.',
  },
];

/** Five stars, each full, half or empty. */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="stars" role="img" aria-label={`${rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => {
        const kind = rating >= n ? 'full' : rating >= n - 0.5 ? 'half' : 'empty';
        return <span key={n} className={`star star-${kind}`} data-star={kind} />;
      })}
    </span>
  );
}

export function Testimonials() {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return;
    const t = setInterval(
      () => setIndex((i) => (i + 1) % TESTIMONIALS.length),
      TIMINGS.testimonialsIntervalMs,
    );
    return () => clearInterval(t);
  }, [paused]);
  const t = TESTIMONIALS[index]!;
  return (
    <section
      className="testimonials"
      aria-labelledby="testimonials-title"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <h2 id="testimonials-title">What our customers say</h2>
      <figure key={index} className="testimonial">
        <Stars rating={t.rating} />
        <blockquote>“{t.text}”</blockquote>
        <figcaption>
          {t.name}, {t.place}
        </figcaption>
      </figure>
      <div className="dots">
        {TESTIMONIALS.map((x, i) => (
          <button
            key={x.name}
            type="button"
            aria-label={`Show testimonial ${i + 1}`}
            aria-current={i === index}
            className={i === index ? 'active' : undefined}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}
