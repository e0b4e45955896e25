/** Leaving the storefront (the back office lives on its own origin); one seam for tests to watch. */
export const external = {
  go(url: string) {
    window.location.assign(url);
  },
};
