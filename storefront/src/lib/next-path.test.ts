import { nextPath, withNext } from './next-path';

describe('nextPath', () => {
  it('goes back to a path of this shop only', () => {
    const of = (q: string) => nextPath(new URLSearchParams(q));
    expect(of('next=%2Fuser%2Forganisation')).toBe('/user/organisation');
    expect(of('next=%2F%2Fevil.example')).toBeNull();
    expect(of('next=https%3A%2F%2Fevil.example')).toBeNull();
    expect(of('next=%2F%5Cevil.example')).toBeNull();
    expect(of('')).toBeNull();
  });

  it('writes the way back into a link', () => {
    expect(withNext('/authenticate/login', '/organisations')).toBe(
      '/authenticate/login?next=%2Forganisations',
    );
    expect(withNext('/authenticate/login', null)).toBe('/authenticate/login');
  });
});
