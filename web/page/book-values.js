// The book's figures beside this model's. Each figure of the chapter's
// sentences that the book states too carries the book's value in its
// `data-book` attribute (and what it is in `data-book-what`); where this
// model's differs, the book's is written right after it, in the same
// sentence, so that both widths show them side by side. The masthead says
// how many of them differ and by how much, from the figures shown.
import { num } from '../widgets/parts/format.js';

/** A figure's number ("−0.22", "4,096"), or NaN for words. */
function numberOf(text) {
  const plain = text.trim().replace(/^\u2212/, '-').replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : NaN;
}

/** The note after a figure, made the first time. */
function noteAfter(figure) {
  const next = figure.nextElementSibling;
  if (next?.classList.contains('book-value')) return next;
  const note = document.createElement('span');
  note.className = 'book-value';
  figure.after(note);
  return note;
}

/** Whether an element is shown (not in a part of the page hidden for this model). */
function shown(element) {
  return !element.closest('[hidden]');
}

/**
 * Writes the book's value after each figure that differs from it, and
 * returns every shown figure compared: [{ what, ours, book, same, by }]
 * (by: how far apart two numbers are, NaN for words).
 */
export function showBookValues() {
  const compared = [];
  for (const figure of document.querySelectorAll('[data-book]')) {
    const ours = figure.textContent.trim(), book = figure.dataset.book;
    const same = ours === book;
    const note = noteAfter(figure);
    note.hidden = same;
    note.textContent = same ? '' : ` (the book: ${book})`;
    if (shown(figure)) compared.push({ what: figure.dataset.bookWhat ?? '', ours, book, same, by: Math.abs(numberOf(ours) - numberOf(book)) });
  }
  return compared;
}

/**
 * The masthead's line about the book's figures, in the measure the page
 * shows them: how many are the book's, and how far the scores that differ
 * are from it (the largest named).
 */
export function bookNote(compared) {
  // A figure stated twice (Lily's id) is counted once.
  const figures = [...new Map(compared.map((figure) => [figure.what, figure])).values()];
  const differ = figures.filter((figure) => !figure.same);
  const intro = 'The book’s figures come from the book’s own model. This page computes each one from the model it loads instead';
  if (!figures.length) return `${intro}.`;
  if (!differ.length) return `${intro}, and all ${figures.length} of the chapter’s figures come out as the book’s.`;
  const scores = differ.filter((figure) => Number.isFinite(figure.by) && figure.by < 2);
  const largest = scores.reduce((best, figure) => (!best || figure.by > best.by ? figure : best), undefined);
  const byHowMuch = largest
    ? `; the scores differ by up to ${num(largest.by, 2)} (${largest.what}: ${largest.ours} here, ${largest.book} in the book)`
    : '';
  const same = figures.length - differ.length;
  const count = same === 0 ? `none of the chapter’s ${figures.length} figures comes out as the book’s`
    : `${same} of the chapter’s ${figures.length} figures ${same === 1 ? 'comes' : 'come'} out as the book’s and ${differ.length} ${differ.length === 1 ? 'differs' : 'differ'}`;
  return `${intro}: ${count}${byHowMuch}. Where a figure differs, the book’s value is beside it.`;
}
