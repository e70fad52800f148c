// Finding the page's elements, and which keys the focused one keeps from the page's shortcuts.

export function element<T extends Element>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as unknown as T;
}

/** Controls the browser activates with Space or Enter. */
const ACTIVATED = 'button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="switch"], [role="radio"], [role="tab"], [role="menuitem"], [role="option"]';

/** Whether the focused element was reached by keyboard (Tab, or focus moved after a key) rather than a pointer. */
let keyboardFocus = false;
let lastInputWasKey = false;
document.addEventListener('keydown', () => (lastInputWasKey = true), true);
document.addEventListener('pointerdown', () => (lastInputWasKey = false), true);
document.addEventListener('focusin', () => (keyboardFocus = lastInputWasKey), true);

/**
 * Whether a key pressed on `target` belongs to it rather than to a page's shortcuts: a field keeps
 * every key, and a button, link, <summary> or other control reached by keyboard its Space and
 * Enter, so that the browser acts on it. A control just clicked keeps focus too: there Space stays
 * the page's (pressing Run, then Space, pauses rather than running again), as on the page or a
 * canvas. (`:focus-visible` cannot tell: a key pressed makes the focused element match it.)
 */
export function keyBelongsTo(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable="true"], [contenteditable=""]')) return true;
  return (key === ' ' || key === 'Enter') && keyboardFocus && target.closest(ACTIVATED) !== null;
}
