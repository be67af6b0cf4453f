// A ranked list of tokens with their cosine scores: bars and numbers.
import { el } from './dom.js';
import { num } from './format.js';

/**
 * An <ol> of neighbours. Each token is a button (onPick(id)) when onPick is
 * given; the bar spans 0 to 1 and the number is always written next to it.
 */
export function neighbourList(neighbours, { onPick, label } = {}) {
  const list = el('ol', { className: 'ew-neighbours' });
  if (label) list.setAttribute('aria-label', label);
  for (const { id, text, score } of neighbours) {
    const word = onPick
      ? el('button', { type: 'button', className: 'ew-token ew-link', textContent: text, title: `Show the closest tokens to ${text}` })
      : el('span', { className: 'ew-token', textContent: text });
    if (onPick) word.addEventListener('click', () => onPick(id));
    const bar = el('span', { className: 'ew-bar-fill' });
    bar.style.width = `${Math.max(0, Math.min(1, score)) * 100}%`;
    if (score < 0) bar.classList.add('ew-bar-negative');
    list.append(el('li', { className: 'ew-neighbour' },
      el('span', { className: 'ew-neighbour-word' }, word, el('span', { className: 'ew-muted', textContent: ` ${id}` })),
      el('span', { className: 'ew-bar', 'aria-hidden': 'true' }, bar),
      el('span', { className: 'ew-score', textContent: num(score, 2) })));
  }
  return list;
}
