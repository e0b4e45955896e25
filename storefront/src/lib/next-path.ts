/**
 * Where to go back to after signing in: `?next=` when it is a path of this shop (one leading
 * slash: never `//host` or an absolute URL, so a link cannot send someone elsewhere), else null.
 */
export function nextPath(search: URLSearchParams): string | null {
  const next = search.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
    ? next
    : null;
}

/** `path` with the `?next=` that brings the person back to `back`. */
export const withNext = (path: string, back: string | null) =>
  back ? `${path}?next=${encodeURIComponent(back)}` : path;
