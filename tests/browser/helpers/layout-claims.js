// What the page says about its own layout, checked against the layout at
// the width it is open at: the book's value beside each figure of the
// chapter that differs from it, and the words "above" and "below" true.

/**
 * Each shown figure whose value differs from the book's, with the book's
 * value after it: { what, ours, book, note, apart } where `apart` is how far
 * apart (px) the tops of the figure and the note are (a line's height at
 * most when they are side by side, or the note wrapped to the next line).
 */
export function bookValuesBeside(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-book]')]
    .filter((figure) => !figure.closest('[hidden]'))
    .map((figure) => {
      const note = figure.nextElementSibling?.classList.contains('book-value') ? figure.nextElementSibling : null;
      const a = figure.getClientRects()[0], b = note && !note.hidden ? note.getClientRects()[0] : null;
      return {
        what: figure.dataset.bookWhat, ours: figure.textContent.trim(), book: figure.dataset.book,
        note: note && !note.hidden ? note.textContent : null,
        apart: a && b ? Math.abs(b.top - a.top) : null,
        lineHeight: parseFloat(getComputedStyle(figure).lineHeight) || 24,
      };
    }));
}

/**
 * The page's and the widgets' sentences that point up or down, each with
 * whether what it points at is there: [{ claim, holds }].
 */
export function directionsHold(page) {
  return page.evaluate(() => {
    const top = (element) => element.getBoundingClientRect().top;
    const bottom = (element) => element.getBoundingClientRect().bottom;
    const $ = (selector) => document.querySelector(selector);
    const positions = $('#positions');
    return [
      // "Pick a word on the map or above": the closest tokens' box is above the map.
      { claim: 'Similar words: the word box “above” the map', holds: bottom($('#nearest')) <= top($('#vocabulary-map')) },
      // "the two real rows above": the row-dot widget is above the editor's sentence.
      { claim: 'Dot product: “the two real rows above”', holds: bottom($('#row-dot')) <= top($('a[href="#row-dot"]')) },
      // The position map: "The line below is its row of the map".
      { claim: 'Position map: “the line below”', holds: bottom(positions.querySelector('.ew-profile-text')) <= top(positions.querySelector('.ew-profile')) },
      // The waves' note: "the map above is their cosine".
      { claim: 'Waves: “the map above”', holds: bottom(positions.querySelector('.ew-position-maps')) <= top(positions.querySelector('.ew-waves-details')) },
      // No widget's button points at a place: the editor's button names no direction.
      { claim: 'Row products: the editor button names no direction', holds: !/above|below/.test($('#row-dot').textContent.match(/Put the first three places[^.]*/)?.[0] ?? 'x') },
    ];
  });
}
