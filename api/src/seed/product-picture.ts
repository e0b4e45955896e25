import sharp from 'sharp';

export interface PictureSubject {
  /** Drawn as initials and a caption. */
  name: string;
  /** The category's colour: background and badge. */
  categoryColour: string;
  /** Leaves, flowers or fruit. */
  accent: string;
  /** Flowers and fruit get blooms drawn among the leaves. */
  blooms: boolean;
}

const SIZE = 640;

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small deterministic random sequence, so a variety's picture is the same on every run. */
function sequence(seed: number): () => number {
  let state = seed || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Mixes a `#rrggbb` colour with white (`amount` 0..1). */
function tint(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (n >> shift) & 0xff;
    return Math.round(c + (255 - c) * amount)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** First letters of the first two words of the name (brackets left out): "Hass Avocado" -> "HA". */
export function initials(name: string): string {
  const words = name
    .replace(/\(.*?\)/g, ' ')
    .split(/\s+/)
    .filter((word) => /^[A-Za-z]/.test(word));
  return words
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

/** The SVG of a product picture: a potted plant on the category's colour, with initials. */
export function pictureSvg(subject: PictureSubject): string {
  const random = sequence(hash(subject.name));
  const leafColour = subject.blooms ? '#43a047' : subject.accent;
  const cx = SIZE / 2;
  const potTop = 430;
  const stemTop = 150 + Math.round(random() * 60);

  const leaves: string[] = [];
  const leafCount = 6 + Math.floor(random() * 5);
  for (let i = 0; i < leafCount; i += 1) {
    const y = potTop - 40 - ((potTop - 40 - stemTop) * i) / leafCount;
    const side = i % 2 === 0 ? -1 : 1;
    const length = 70 + random() * 60 - i * 3;
    const angle = side * (25 + random() * 35);
    const x = cx + side * (length / 2) * 0.8;
    const shade = tint(leafColour, random() * 0.25);
    leaves.push(
      `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${(length / 2).toFixed(1)}" ry="${(length / 5).toFixed(1)}" ` +
        `fill="${shade}" stroke="#1b3d12" stroke-opacity="0.25" ` +
        `transform="rotate(${angle.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})"/>`,
    );
  }
  const blooms: string[] = [];
  if (subject.blooms) {
    const count = 3 + Math.floor(random() * 3);
    for (let i = 0; i < count; i += 1) {
      const x = cx + (random() - 0.5) * 220;
      const y = stemTop + 20 + random() * (potTop - stemTop - 120);
      const r = 16 + random() * 14;
      blooms.push(
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" fill="${subject.accent}" stroke="#ffffff" stroke-width="3"/>`,
      );
    }
  }

  const caption = subject.name.length > 34 ? `${subject.name.slice(0, 33)}…` : subject.name;
  const captionSize = Math.min(34, Math.floor(1000 / Math.max(caption.length, 1)));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${tint(subject.categoryColour, 0.85)}"/>
      <stop offset="1" stop-color="${tint(subject.categoryColour, 0.6)}"/>
    </linearGradient>
  </defs>
  <rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
  <circle cx="${cx}" cy="300" r="210" fill="#ffffff" fill-opacity="0.35"/>
  <path d="M${cx} ${potTop} C ${cx - 8} 330 ${cx + 8} 240 ${cx} ${stemTop}" stroke="#2e5e1e" stroke-width="9" fill="none" stroke-linecap="round"/>
  ${leaves.join('\n  ')}
  ${blooms.join('\n  ')}
  <path d="M${cx - 110} ${potTop} L${cx + 110} ${potTop} L${cx + 85} ${potTop + 110} L${cx - 85} ${potTop + 110} Z" fill="#b5653a"/>
  <rect x="${cx - 122}" y="${potTop - 8}" width="244" height="30" rx="8" fill="#c8764a"/>
  <circle cx="78" cy="78" r="52" fill="${subject.categoryColour}"/>
  <text x="78" y="96" font-family="DejaVu Sans, Arial, sans-serif" font-size="48" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(initials(subject.name))}</text>
  <rect x="0" y="${SIZE - 62}" width="${SIZE}" height="62" fill="${subject.categoryColour}" fill-opacity="0.9"/>
  <text x="${cx}" y="${SIZE - 20}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${captionSize}" fill="#ffffff" text-anchor="middle">${escapeXml(caption)}</text>
</svg>`;
}

/** The picture as a PNG (what the image service takes in and re-encodes as WebP). */
export function renderPicture(subject: PictureSubject): Promise<Buffer> {
  return sharp(Buffer.from(pictureSvg(subject)))
    .png({ compressionLevel: 1 })
    .toBuffer();
}
