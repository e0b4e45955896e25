import { mayPlayVideo } from './media';

describe('mayPlayVideo', () => {
  it('plays on a fast connection without Save-Data', () => {
    expect(mayPlayVideo({ effectiveType: '4g', saveData: false }, false)).toBe(true);
  });

  it('never plays with Save-Data on, even on 4G', () => {
    expect(mayPlayVideo({ effectiveType: '4g', saveData: true }, false)).toBe(false);
  });

  it.each(['slow-2g', '2g', '3g'])('never plays on a %s connection', (effectiveType) => {
    expect(mayPlayVideo({ effectiveType }, false)).toBe(false);
  });

  it('never plays for someone who asked for reduced motion', () => {
    expect(mayPlayVideo({ effectiveType: '4g' }, true)).toBe(false);
  });

  it('treats a browser that says nothing about its connection as fast', () => {
    expect(mayPlayVideo(undefined, false)).toBe(true);
  });
});
