/** Making the page's elements. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string | null,
  text?: string | null,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A button named by `k` (so focus finds it again after a redraw) that runs `onTap`. */
export function button(cls: string, k: string, onTap: () => void): HTMLButtonElement {
  const b = el('button', cls);
  b.type = 'button';
  b.setAttribute('data-k', k);
  b.addEventListener('click', onTap);
  return b;
}
