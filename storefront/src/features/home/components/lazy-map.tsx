import { lazy, Suspense, useEffect, useRef, useState } from 'react';

const MapBlock = lazy(() => import('./map-block'));

/** Loads the map block only once it scrolls near the viewport. */
export function LazyMap() {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          io.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    io.observe(node);
    return () => io.disconnect();
  }, []);
  return (
    <section ref={ref} className="map" aria-labelledby="visit-title">
      <h2 id="visit-title">Visit us</h2>
      {visible && (
        <Suspense fallback={<p className="state">Loading map...</p>}>
          <MapBlock />
        </Suspense>
      )}
    </section>
  );
}
