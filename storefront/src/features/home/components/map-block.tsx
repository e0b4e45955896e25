import '../home.css';
/** Where the nursery is on OpenStreetMap (Kiambu town). */
const BBOX = '36.79,-1.20,36.87,-1.14';
const MARKER = '-1.1714,36.8356';

/** The store's location: an embedded map (720 × 600), loaded only once it scrolls near. */
export default function MapBlock() {
  return (
    <div className="map-card">
      <iframe
        title="Map: Seedling Propagation Centre, Kiambu"
        src={`https://www.openstreetmap.org/export/embed.html?bbox=${BBOX}&layer=mapnik&marker=${MARKER}`}
        width={720}
        height={600}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
      <div>
        <h3>Seedling Propagation Centre, Kiambu</h3>
        <a
          href={`https://www.openstreetmap.org/?mlat=-1.1714&mlon=36.8356#map=15/-1.1714/36.8356`}
          target="_blank"
          rel="noreferrer"
        >
          Open the map
        </a>
      </div>
    </div>
  );
}
