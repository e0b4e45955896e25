/**
 * The store's location. A local card with a link instead of an embedded maps frame, so the page
 * loads nothing from third parties (and tests never reach the internet).
 */
export default function MapBlock() {
  return (
    <div className="map-card">
      <svg viewBox="0 0 720 300" width="100%" height="auto" aria-hidden="true">
        <rect width="720" height="300" fill="#e8efe0" />
        <path d="M0 200 C200 150 300 260 720 180" stroke="#c9d8b8" strokeWidth="24" fill="none" />
        <path d="M120 0 L220 300" stroke="#fff" strokeWidth="10" />
        <path d="M0 90 L720 130" stroke="#fff" strokeWidth="8" />
        <circle cx="360" cy="125" r="14" fill="#c0392b" />
      </svg>
      <div>
        <h3>Seedling Propagation Centre, Kiambu</h3>
        <a
          href="https://www.openstreetmap.org/search?query=Kiambu%2C%20Kenya"
          target="_blank"
          rel="noreferrer"
        >
          Open the map
        </a>
      </div>
    </div>
  );
}
