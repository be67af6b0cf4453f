// <ew-chapter-code>: a Code part of the chapter, with a Run button that shows
// what each line gives, formatted as a console prints it.
//
// The page's Content-Security-Policy allows no eval, so the code is not
// executed from its text: each line comes with a function that does exactly
// what the line says through the public API.
//
//   const code = document.querySelector('ew-chapter-code');
//   code.lines = [{ code: 'dot([1, 2, 3], [4, 0, -1]);', comment: '1', run: () => dot([1, 2, 3], [4, 0, -1]) }];
//
// A line may carry a figure, { what, book, ours }: the book's value and this
// model's (ours() computes it, each time the lines are shown), side by side
// in a small table under the code.
import { el, ensureStylesheet, uniqueId } from './parts/dom.js';
import { consoleFormat } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';
import { ElementBase } from './parts/element-base.js';

export class ChapterCode extends ElementBase {
  #lines = [];

  connectedCallback() {
    if (this.built) return;
    this.built = true;
    ensureStylesheet();
    this.classList.add('ew');
    this.codeElement = el('code');
    this.run = el('button', { type: 'button', className: 'ew-button ew-run', textContent: 'Run', disabled: true });
    this.output = el('output', { className: 'ew-console ew-output', 'aria-live': 'polite' });
    this.output.hidden = true;
    this.figures = el('div', { className: 'ew-code-figures' });
    this.run.addEventListener('click', () => this.execute());
    this.append(el('pre', { className: 'ew-code' }, this.codeElement), this.figures, el('div', { className: 'ew-buttons' }, this.run), this.output);
    this.#render();
  }

  /**
   * The lines: [{ code, comment?, run?, name?, figure? }]. A line with `name`
   * shows that name's value (a declaration); `figure` ({ what, book, ours })
   * puts the book's figure beside this model's, computed by ours().
   */
  get lines() {
    return this.#lines;
  }

  set lines(lines) {
    this.#lines = lines;
    if (this.built) {
      this.#render();
      if (!this.output.hidden) this.execute();
    }
  }

  #render() {
    this.codeElement.replaceChildren(...this.#lines.flatMap((line, i) => [
      el('span', { className: 'ew-code-line', textContent: line.code }),
      line.comment ? el('span', { className: 'ew-code-comment', textContent: ` // ${line.comment}` }) : '',
      i < this.#lines.length - 1 ? '\n' : '',
    ]));
    this.#renderFigures();
    this.run.disabled = !this.#lines.some((line) => line.run);
    this.run.setAttribute('aria-label', `Run the code: ${this.#lines.map((line) => line.code).join(' ')}`);
  }

  #renderFigures() {
    const figures = this.#lines.filter((line) => line.figure);
    this.figures.hidden = !figures.length;
    if (!figures.length) return this.figures.replaceChildren();
    const ours = (figure) => {
      try {
        return figure.ours();
      } catch (error) {
        return error.message;
      }
    };
    const captionId = uniqueId('ew-figures');
    this.figures.replaceChildren(el('p', { className: 'ew-figures-caption', id: captionId, textContent: 'The book’s figures beside this model’s, computed now:' }),
      el('table', { className: 'ew-figures-table', 'aria-labelledby': captionId },
      el('thead', {}, el('tr', {}, ...['', 'The book’s model', 'This model'].map((text) => el('th', { scope: 'col', textContent: text })))),
      el('tbody', {}, ...figures.map(({ figure }) => el('tr', {},
        el('th', { scope: 'row', textContent: figure.what }),
        el('td', { 'data-label': 'The book’s model', textContent: figure.book }),
        el('td', { 'data-label': 'This model', className: 'ew-figure-ours', textContent: ours(figure) }))))));
  }

  /** Runs every line in order; returns the results (an Error object for a line that threw). */
  execute() {
    const results = [];
    const rows = [];
    for (const line of this.#lines) {
      if (!line.run) continue;
      let value, failed = false;
      try {
        value = line.run();
      } catch (error) {
        value = error;
        failed = true;
      }
      results.push(value);
      const text = line.name && !failed ? `${line.name} = ${consoleFormat(value)}` : consoleFormat(value);
      rows.push(el('div', { className: `ew-console-entry${failed ? ' ew-console-error' : ''}` },
        el('span', { className: 'ew-console-input', textContent: `> ${line.code}` }),
        '\n',
        el('span', { className: 'ew-console-result', textContent: `< ${text.replace(/\n/g, '\n  ')}` })));
    }
    this.output.replaceChildren(...rows);
    this.output.hidden = false;
    this.results = results;
    return results;
  }
}

defineWidget('ew-chapter-code', ChapterCode);
