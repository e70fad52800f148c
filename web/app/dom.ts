// Finding the page's elements, and which keys the focused one keeps from the page's shortcuts.

export function element<T extends Element>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as unknown as T;
}

/** Controls the browser activates with Space or Enter. */
const ACTIVATED = 'button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="switch"], [role="radio"], [role="tab"], [role="menuitem"], [role="option"]';

/**
 * Whether a key pressed on `target` belongs to it rather than to a page's shortcuts: a field keeps
 * every key, and a button, link, <summary> or other control its Space and Enter, so that the
 * browser acts on it. Anything else (the page, a canvas) leaves the key to the shortcuts.
 */
export function keyBelongsTo(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable="true"], [contenteditable=""]')) return true;
  return (key === ' ' || key === 'Enter') && target.closest(ACTIVATED) !== null;
}
