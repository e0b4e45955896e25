/**
 * The text of a PDF's content streams, inflated (pdfkit compresses them): each TJ array's hex
 * strings decoded, one drawn line a line. Shared by the API's e2e suites and the browser journeys.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { inflateSync } = await import('node:zlib');
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      parts.push(inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1'));
    } catch {
      // not a deflated stream (fonts' metrics, ...)
    }
  }
  const lines = parts.join('\n').match(/\[[^\]]*\]\s*TJ/g) ?? [];
  return lines
    .map((line) =>
      (line.match(/<([0-9a-fA-F]*)>/g) ?? [])
        .map((hex) => Buffer.from(hex.slice(1, -1), 'hex').toString('latin1'))
        .join(''),
    )
    .join('\n');
}
