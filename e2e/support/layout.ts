import type { Page } from 'playwright-core';

/**
 * What sticks out at the current width: the page scrolling sideways, a card reaching past the viewport or wider than
 * its own box (a table or text cut off), and with `wide`, a table that has to scroll at all.
 */
export function overflows(page: Page, wide: boolean): Promise<string[]> {
  return page.evaluate((wide) => {
    const found: string[] = [];
    const root = document.documentElement;
    const viewport = root.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${[...el.classList].filter((c) => !/^(css|mui|mui-rtl)-\w+$/.test(c)).join('.')}`;
    if (root.scrollWidth > viewport) found.push(`the page scrolls: ${root.scrollWidth} > ${viewport}`);
    for (const card of document.querySelectorAll('main .MuiPaper-root')) {
      const box = card.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < -1 || box.right > viewport + 1)
        found.push(
          `${name(card)} reaches past the viewport: ${Math.round(box.left)}…${Math.round(box.right)}`,
        );
      if (card.scrollWidth > card.clientWidth + 1)
        found.push(`${name(card)} is wider inside than its box: ${card.scrollWidth} > ${card.clientWidth}`);
    }
    // Only tables may scroll sideways: anything else that does hides part of itself (e.g. the page buttons).
    for (const el of document.querySelectorAll('main *')) {
      const overflowX = getComputedStyle(el).overflowX;
      const scrolls = (overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      if (scrolls && !el.querySelector(':scope > table, [role=tablist]'))
        found.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    for (const table of document.querySelectorAll('main table')) {
      const scroller = table.parentElement!;
      const overflowX = getComputedStyle(scroller).overflowX;
      if (overflowX !== 'auto' && overflowX !== 'scroll')
        found.push(`${name(scroller)} does not scroll its table`);
      if (wide && scroller.scrollWidth > scroller.clientWidth + 1)
        found.push(`a table scrolls: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
    }
    return found;
  }, wide);
}
