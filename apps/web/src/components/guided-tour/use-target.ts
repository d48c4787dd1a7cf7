import { useEffect, useState } from 'react';

/** Whether an element matching `selector` is on the page now; follows the page as it renders and changes. */
export function useTargetPresent(selector: string | null): boolean {
  const find = () => (selector ? document.querySelector(selector) !== null : false);
  const [present, setPresent] = useState(find);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `find` reads only `selector`
  useEffect(() => {
    setPresent(find());
    if (!selector) return;
    const observer = new MutationObserver(() => setPresent(find()));
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [selector]);
  return present;
}
