/** Spec section 4's page-load bar: start at 10, every 800 ms add 5 to 15, stay below about 82, then 100 and hide. */
export const PAGE_LOAD = {
  start: 10,
  tickMs: 800,
  minStep: 5,
  maxStep: 15,
  cap: 82,
  hideAfterMs: 300,
} as const;

export function nextProgress(current: number, random: () => number = Math.random): number {
  const step = PAGE_LOAD.minStep + Math.floor(random() * (PAGE_LOAD.maxStep - PAGE_LOAD.minStep + 1));
  return Math.min(PAGE_LOAD.cap, current + step);
}
