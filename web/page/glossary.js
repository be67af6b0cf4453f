// The chapter page's glossary terms: a definition opens in place; Escape
// closes the one open (and gives the focus back to its term).

function setTerm(term, open) {
  term.setAttribute('aria-expanded', String(open));
  document.getElementById(term.getAttribute('aria-controls')).hidden = !open;
}

export function installGlossary() {
  for (const term of document.querySelectorAll('button.term')) {
    term.addEventListener('click', () => setTerm(term, term.getAttribute('aria-expanded') !== 'true'));
  }
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = [...document.querySelectorAll('button.term[aria-expanded="true"]')];
    if (!open.length) return;
    const focused = open.find((term) => term === document.activeElement ||
      document.getElementById(term.getAttribute('aria-controls')).contains(document.activeElement)) ?? open[open.length - 1];
    setTerm(focused, false);
    focused.focus();
  });
}
