// Finding the page's elements: a missing one is a bug in web/index.html, said at once.

export function element<T extends Element>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as unknown as T;
}
