/**
 * Equal strings kept once while the catalogue is read into memory: products share descriptions,
 * unit names, image addresses and dates far more than their text suggests (a variety's sizes, a
 * tray unit named alike on every product, products added in one batch), and each string read from
 * the database is its own copy. The pool lives for one load only: it holds nothing afterwards.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();
  private readonly lower = new Map<string, string>();

  /** The one copy of `text` this load keeps. */
  intern(text: string): string {
    const kept = this.strings.get(text);
    if (kept !== undefined) return kept;
    this.strings.set(text, text);
    return text;
  }

  /** `text` lower-cased, once per distinct text (the text itself when it has no capitals). */
  lowerCase(text: string): string {
    let lower = this.lower.get(text);
    if (lower === undefined) {
      const folded = text.toLowerCase();
      lower = folded === text ? text : this.intern(folded);
      this.lower.set(text, lower);
    }
    return lower;
  }
}
