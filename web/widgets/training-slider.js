// <ew-training-slider>: from random numbers (step 0) to the trained model. Move
// the slider and watch a word's closest tokens and the position map change.
// Uses the F16 snapshots of the token and position tables that training
// wrote next to the model (snapshots/index.json).
//
//   <ew-training-slider src="model/" word="·girl"></ew-training-slider>
//
// Snapshots load lazily: the index when the widget first comes near the
// screen, each snapshot (about 1 MB for 4,096 × 128 plus 128 × 128 numbers
// in F16) when the slider first reaches it. The last `keep` snapshots used
// (default 4) stay loaded so moving back is instant; older ones are disposed.
//
// Under them, learning as it happens (training-progress.js): the map of the
// token table at each step, the loss curve with the step marked, and a table
// of `word` and `pair` (default ·boy) across the snapshots. Once the slider
// is near the screen, the snapshots are laid out from the last (the one
// shown first) back towards step 0, lazily: no further than LAID_OUT_AHEAD
// snapshots before the earliest the slider has shown, so a reader who never
// moves it fetches and lays out three, not all. The last snapshot's map is
// model.map()'s UMAP; each earlier one starts from the map of the snapshot
// after it (WARM_EPOCHS epochs, model.map's `init`), so points start where
// they were and move as far as the table changed, and is then aligned to it.
// The work goes in model.map()'s slices, so the page keeps answering, and
// each snapshot's map and figures are kept for the page's life. The loss
// curve is `curve` (default: training-curve.json next to the model).
import { loadModel, alignMap } from '../index.js';
import { yieldToMain } from '../src/event-loop.js';
import { ModelWidget } from './parts/model-widget.js';
import { el, scrollCue, uniqueId } from './parts/dom.js';
import { whenVisible } from './parts/scheduler.js';
import { settableAttributes } from './parts/attributes.js';
import { fetchOk, loadTrainingFiles } from './parts/training-files.js';
import { int, num } from './parts/format.js';
import { hasTokenizer, shareVocabulary, vocabularyOf } from './parts/token-picker.js';
import { groupIds } from './parts/vocabulary-groups.js';
import { LearningMap, LossCurve, figuresTable, mapFigures, ordinal, pairFigures } from './parts/training-progress.js';
import { StepInput, indexOfStep, stepWords } from './parts/training-steps.js';
import './nearest-words.js';
import './position-map.js';
import { installFigures } from './parts/figure-control.js';
import { defineWidget } from './parts/definitions.js';

/** Snapshots laid out before the earliest one shown, so that a step or two back finds its map ready. */
const LAID_OUT_AHEAD = 2;
/**
 * Epochs of a map started from the next snapshot's: the kNN graph is most
 * of its cost then. Measured on the 13 snapshots of the default model's
 * training, it keeps nearly the neighbours a map from the PCA start keeps,
 * and at step 0 (random numbers) the colour words lie as scattered as they
 * do there: nothing of the later map is left where the table has no
 * structure (docs/map.md).
 */
const WARM_EPOCHS = 30;

export class TrainingSlider extends ModelWidget {
  /** For the tests: how an earlier snapshot's map is made (see WARM_EPOCHS). */
  static warmEpochs = WARM_EPOCHS;

  // Set once the page is to be printed: the snapshots load then, near the screen or not.
  #forPrint = false;
  #printWanted;

  static get observedAttributes() {
    return [...super.observedAttributes, 'snapshots', 'word', 'pair', 'curve'];
  }

  build() {
    const id = uniqueId('ew-step');
    // Enabled from the start, for the keyboard too: the first key, click or Play asks for the snapshots' list,
    // and what it asked for is done once the list is in.
    this.range = el('input', { type: 'range', id, className: 'ew-range', min: 0, max: 0, step: 1, value: 0,
      'aria-valuetext': 'the training steps are loading' });
    this.play = el('button', { type: 'button', className: 'ew-button', textContent: 'Play', 'aria-pressed': 'false' });
    this.asked = new Promise((resolve) => { this.ask = resolve; });
    this.listed = new Promise((resolve) => { this.resolveListed = resolve; });
    this.listed.catch(() => {});
    this.ticks = el('ol', { className: 'ew-ticks', 'aria-label': 'Go to a step' });
    this.stepText = el('p', { className: 'ew-summary', 'aria-live': 'polite' });
    this.loading = el('p', { className: 'ew-note', role: 'status' });
    this.nearest = el('ew-nearest-words', { className: 'ew-nested' });
    this.map = el('ew-position-map', { className: 'ew-nested' });
    this.nearest.setAttribute('word', this.getAttribute('word') ?? '·girl');
    this.map.setAttribute('place', '2');
    this.map.setAttribute('other', '3');
    // The nested widgets show snapshots this widget hands them, never files.
    let firstSnapshot;
    this.firstSnapshot = new Promise((resolve, reject) => { firstSnapshot = { resolve, reject }; });
    this.firstSnapshot.catch(() => {});
    this.resolveFirst = firstSnapshot;
    this.nearest.model = this.firstSnapshot;
    this.map.model = this.firstSnapshot;
    this.loaded = new Map();   // index → Promise<Model>
    this.used = [];            // indices, least recently shown first
    this.learnMap = new LearningMap();
    this.lossCurve = new LossCurve();
    this.figures = [];         // index → { cosine, rank, spread, mapRank }, as computed
    this.provisional = [];     // index → a quick map (PCA, aligned) shown while that snapshot's UMAP is laid out
    this.tableBox = el('div', { className: 'ew-table-scroll' });
    this.nestedSections = [];
    this.rangeBox = el('div', { className: 'ew-range-box' }, this.range, this.ticks);
    this.append(
      el('label', { className: 'ew-label', for: id, textContent: 'Training step' }),
      el('div', { className: 'ew-slider-line' }, this.rangeBox, this.play),
      el('p', { className: 'ew-help ew-slider-help', textContent: 'Drag the handle, click or tap along the line or on a step, ' +
        'or use the arrow keys, Home and End; a swipe over the line scrolls the page.' }),
      this.stepText, this.loading,
      el('div', { className: 'ew-two' },
        ...(this.nestedSections = [
          el('section', { 'aria-label': 'Closest tokens at this step' }, el('h4', { textContent: 'Closest tokens' }), this.nearest),
          el('section', { 'aria-label': 'Position map at this step' }, el('h4', { textContent: 'Position map' }), this.map)])),
      el('div', { className: 'ew-two' },
        el('section', { 'aria-label': 'Map of the token table at this step' }, el('h4', { textContent: 'The token table on a map' }), this.learnMap.element),
        el('section', { 'aria-label': 'Loss during training' }, el('h4', { textContent: 'Loss during training' }), this.lossCurve.element)),
      this.tableBox, scrollCue(this.tableBox, { label: 'The figures of each snapshot' }));
    this.range.addEventListener('input', () => this.#go(Number(this.range.value)));
    this.steps = new StepInput(this, { go: (i) => this.#go(i).catch(() => {}) });
    this.play.addEventListener('click', () => {
      if (this.snapshots) this.#toggle();
      else {
        this.ask();
        this.listed.then(() => this.#toggle());
      }
    });
  }

  attributeChangedCallback(name, before, after) {
    if (name === 'word') {
      if (after && this.nearest) this.nearest.setAttribute('word', after);
      return;
    }
    if (name === 'snapshots' || name === 'pair' || name === 'curve') return;
    super.attributeChangedCallback(name, before, after);
  }

  /** The word whose closest tokens are shown (its token's text); setting it is the same as setting the attribute. */
  get word() {
    this.ensureBuilt();
    return this.nearest.word;
  }

  set word(text) {
    this.setAttribute('word', String(text));
  }

  /**
   * The training step shown (a step of the snapshots' index, such as 160).
   * Setting it goes to that step's snapshot (or the last one before it),
   * at once if the snapshots are listed, else when they are.
   */
  get step() {
    return this.snapshots?.[this.index]?.step ?? this.wantedStep;
  }

  set step(value) {
    const step = Number(value);
    if (Number.isNaN(step)) return;
    if (!this.snapshots) {
      // Infinity: the last step, as the slider opens anyway.
      this.wantedStep = Number.isFinite(step) ? step : undefined;
      return;
    }
    const i = indexOfStep(this.snapshots, step);
    if (i !== this.index) this.#go(i).catch(() => {});
  }

  /**
   * Loads and draws what the slider shows, whether it has come near the
   * screen or not, for the page to be printed: the step's snapshot, its
   * closest tokens and position map, its map of the token table and the
   * loss curve. Resolves when they are drawn (or the slider has failed).
   */
  async prepareForPrint() {
    this.ensureBuilt();
    this.#forPrint = true;
    this.#printWanted?.();
    await this.updated;
    if (this.dataset.state !== 'ready' || !this.snapshots) return;
    await this.curveDrawn;
    await this.learnMap.whenShown(this.index);
  }

  /** The training snapshots, listed once the index is read: { file, step, tokens_seen, …, url } each. */
  get snapshots() {
    return this.snapshotList;
  }

  /** How many snapshots stay loaded. */
  get keep() {
    const keep = Number(this.getAttribute('keep') ?? 4);
    return Number.isInteger(keep) && keep >= 1 ? keep : 4;
  }

  async show(model) {
    if (model && !hasTokenizer(model)) {
      const error = new Error(`Watch it learn finds ${this.getAttribute('word') ?? '·girl'} and ${this.getAttribute('pair') ?? '·boy'} in each ` +
        'training snapshot, which needs the model’s tokenizer.json, and this model came without one.');
      error.heading = 'No tokenizer.json.';
      this.resolveFirst.reject(error);
      throw error;
    }
    // The snapshots load only when the widget is near the screen, the reader
    // comes to it by keyboard first, or the page is to be printed.
    await Promise.race([whenVisible(this), this.asked, new Promise((resolve) => {
      this.#printWanted = resolve;
      if (this.#forPrint) resolve();
    })]);
    this.loading.textContent = 'Loading the list of training snapshots…';
    // The snapshots share the model's config and tokenizer: the config is
    // fetched once, the tokenizer is lent by the loaded model.
    const training = await loadTrainingFiles(this.files, {
      snapshots: this.getAttribute('snapshots'), curve: this.getAttribute('curve'), needTokenizer: !model,
    }).catch((error) => {
      this.resolveFirst.reject(error);
      throw error;
    });
    this.snapshotList = training.snapshots;
    this.snapshotConfig = training.config;
    this.tokenizerBytes = training.tokenizer;
    this.range.max = String(this.snapshots.length - 1);
    // The steps are far from evenly spaced (training changes most early on): say which is where.
    // Each a button: on a phone the track ignores a finger (only its handle drags), so a tap on a step goes there.
    this.ticks.replaceChildren(...this.snapshots.map((entry, i) => {
      const button = el('button', { type: 'button', className: 'ew-tick', textContent: int(entry.step), 'aria-label': `Step ${int(entry.step)}` });
      button.addEventListener('click', () => this.#go(i).catch(() => {}));
      return el('li', {}, button);
    }));
    const word = this.getAttribute('word') ?? '·girl', pair = this.getAttribute('pair') ?? '·boy';
    this.table = figuresTable(this.snapshots, word, pair);
    this.tableBox.replaceChildren(this.table.table);
    /** Resolves once the loss curve is drawn, or its failure said. */
    this.curveDrawn = fetchOk(training.curveUrl).then((response) => response.json())
      .then((curve) => { this.lossCurve.draw(curve, this.snapshots, this.snapshotConfig?.vocab_size ?? this.model?.vocabSize); this.lossCurve.mark(this.snapshots[this.index]); })
      .catch((error) => this.lossCurve.fail(`No loss curve: ${error.message}`));
    const generation = (this.generation = (this.generation ?? 0) + 1);
    // Another model's snapshots (the source changed): their maps and figures start afresh.
    if (generation > 1) {
      Object.assign(this.learnMap, { layouts: [], groups: undefined, shown: undefined, target: undefined });
      this.figures = [];
      this.provisional = [];
    }
    this.earliestShown = this.snapshots.length - 1;
    // The last snapshot, unless a step was asked for meanwhile (a shared address names one, a key or a click came first).
    const first = this.#go(this.steps.startIndex((step) => indexOfStep(this.snapshots, step)));
    this.resolveListed();
    await first;
    this.#learn(generation, word, pair).catch((error) => {
      if (this.generation === generation) this.learnMap.status.textContent = `The maps could not be laid out: ${error.message}`;
    });
  }

  /**
   * Lays out the snapshots' maps from the last back towards step 0, no
   * further than LAID_OUT_AHEAD before the earliest shown (waiting there
   * until the slider goes earlier), each started from the map after it and
   * aligned to it; fills the table.
   */
  async #learn(generation, word, pair) {
    const last = this.snapshots.length - 1;
    const { layouts } = this.learnMap;
    // Step 0's table travels while the first map is laid out (#prepareFirstStep makes its quick map).
    if (last > 0 && this.index !== 0) this.snapshot(0).catch(() => {});
    for (let i = last; i >= 0; i--) {
      while (this.generation === generation && i < this.earliestShown - LAID_OUT_AHEAD) {
        this.layingOut = undefined;
        this.#sayStatus();
        await new Promise((resolve) => { this.wantEarlier = resolve; });
      }
      if (this.generation !== generation) return;
      this.layingOut = i;
      this.#sayStatus();
      let snapshot = await this.snapshot(i);
      // The figures, the map's request and what follows its answer each in a task of their own.
      await yieldToMain();
      if (this.generation !== generation) return;
      // The slider may have let it go meanwhile (#evict): load it again.
      if (snapshot.disposed) snapshot = await this.snapshot(i);
      if (!this.learnMap.groups) {
        const groups = groupIds(vocabularyOf(snapshot));
        const labelled = [word, pair].map((text) => ({ id: snapshot.tokenId(text), text }));
        this.learnMap.setMarks(groups, labelled);
        this.pairIds = labelled.map((l) => l.id);
      }
      const { cosine, rank } = pairFigures(snapshot, word, pair);
      await yieldToMain();
      const map = await (i === last ? snapshot.map() : snapshot.map({ init: layouts[i + 1], epochs: WARM_EPOCHS }));
      await yieldToMain();
      if (this.generation !== generation) return;
      layouts[i] = i === last ? map : alignMap(map, layouts[i + 1]);
      const { spread, mapRank } = mapFigures(layouts[i], this.learnMap.groups.colours, ...this.pairIds);
      this.figures[i] = { cosine, rank, spread, mapRank };
      const cells = this.table.rows[i].children;
      cells[2].textContent = num(cosine, 2);
      cells[3].textContent = ordinal(rank);
      cells[4].textContent = `${Math.round(spread * 100)}%`;
      this.table.rows[i].classList.remove('ew-pending');
      this.#release(i, snapshot);
      this.provisional[i] = undefined;
      this.dataset.learned = String(last - i + 1);
      if (this.index === i) this.#showLayout(i);
      if (i === last) this.#prepareFirstStep();
    }
    this.layingOut = undefined;
    this.#sayStatus();
  }

  /**
   * The line over the map: which map is being laid out, and, when the step
   * shown has none yet, that its own comes once the maps after it are done.
   */
  #sayStatus() {
    const view = this.learnMap;
    const i = this.index, n = this.snapshots.length;
    const step = (k) => int(this.snapshots[k].step);
    const working = this.layingOut === undefined ? '' : `now laying out step ${step(this.layingOut)} (${n - this.layingOut} of ${n})`;
    if (i !== undefined && !view.layouts[i]) {
      const after = i < n - 1 && !view.layouts[i + 1] ? ', after those of the later steps (each map starts from the one after it)' : '';
      view.status.textContent = `Laying out step ${step(i)}’s map${after}${working ? `: ${working}` : ''}…`;
    } else {
      view.status.textContent = working ? `Laying out the maps of earlier steps: ${working}…` : '';
    }
  }

  /**
   * Shows snapshot i on the map and says what the picture is: its UMAP
   * (the points travel there from where they are), or, while that is laid
   * out, a quick PCA of its table, or, before its table is in, the last
   * picture dimmed. Never another step's map under this step's words.
   */
  #showLayout(i) {
    const view = this.learnMap;
    const step = int(this.snapshots[i].step);
    this.#sayStatus();
    if (!view.layouts[i]) {
      if (this.provisional[i]) {
        view.showProvisional(i, this.provisional[i]);
        view.words.textContent = `Step ${step}: its map is being laid out. Shown meanwhile: a quick map of step ${step}’s table, ` +
          'its two most varied directions (PCA), not yet the UMAP the other steps show.';
      } else {
        view.wait(i);
        view.words.textContent = `Step ${step}: loading its table; its map follows.`;
      }
      return;
    }
    // From the quick map shown meanwhile, the points move straight to their places; from another step's, through the steps between.
    view.travel(view.showing === 'pca' ? i : view.target, i);
    view.target = i;
    const figures = this.figures[i];
    const [word, pair] = view.labelled.map((l) => l.text);
    view.words.textContent = `Step ${step}: the colour words lie at ${Math.round(figures.spread * 100)}% of the mean distance between two tokens; ` +
      `${pair} is the ${ordinal(figures.mapRank)} closest point to ${word} on the map, and its ${ordinal(figures.rank)} closest token by cosine.`;
  }

  /**
   * A quick map of a loaded snapshot whose UMAP is not laid out yet: its
   * PCA (about 15 ms), aligned to the nearest later map so that it stands
   * as that one does. Shown until the UMAP arrives.
   */
  async #provisionalMap(i, snapshot) {
    const view = this.learnMap;
    if (view.layouts[i] || this.provisional[i] || !view.groups) return;
    const map = await snapshot.map({ method: 'pca' });
    const later = view.layouts.findIndex((layout, k) => k > i && layout);
    if (view.layouts[i]) return;
    this.provisional[i] = later >= 0 ? alignMap(map, view.layouts[later]) : map;
    if (this.index === i) this.#showLayout(i);
  }

  /**
   * Step 0 ("these numbers start out random") is where a reader goes first,
   * and where Play starts from the last step: its snapshot and its quick
   * map are made ahead, once the step shown has its map, so that going
   * there shows them at once rather than after the maps of every step
   * between (each map starts from the one after it).
   */
  #prepareFirstStep() {
    if (this.index === 0 || this.learnMap.layouts[0] || this.provisional[0]) return;
    this.snapshot(0).then((snapshot) => this.#provisionalMap(0, snapshot)).catch(() => {});
  }

  /** Disposes of a snapshot the background lay-out loaded, unless the slider shows it or keeps it. */
  #release(i, snapshot) {
    if (this.used.includes(i) || this.current === snapshot || this.index === i) return;
    this.loaded.delete(i);
    snapshot.dispose();
  }

  /** Loads snapshot i (or finds it loaded). */
  snapshot(i) {
    this.ensureBuilt();
    let promise = this.loaded.get(i);
    if (!promise) {
      const tokenizer = this.model && !this.model.disposed ? this.model : this.tokenizerBytes;
      promise = loadModel({ weights: this.snapshots[i].url, config: this.snapshotConfig, tokenizer })
        .then((snapshot) => {
          // Same tokenizer.json as the model, so the same token texts.
          if (tokenizer) shareVocabulary(this.model, snapshot);
          return snapshot;
        });
      this.loaded.set(i, promise);
      promise.catch(() => this.loaded.delete(i));
    }
    return promise;
  }

  async #go(i) {
    this.index = i;
    this.range.value = String(i);
    const entry = this.snapshots[i];
    const last = this.snapshots[this.snapshots.length - 1];
    const words = stepWords(entry, last);
    this.range.setAttribute('aria-valuetext', words);
    if (i < this.earliestShown) {
      this.earliestShown = i;
      this.wantEarlier?.();
    }
    this.stepText.textContent = `Snapshot ${i + 1} of ${this.snapshots.length}: ${words}.`;
    this.lossCurve.mark(entry);
    if (this.learnMap.groups) this.#showLayout(i);
    this.loading.textContent = this.loaded.has(i) ? '' : `Loading step ${int(entry.step)}…`;
    // Until the step's snapshot is in, the closest tokens and position map are the last step's: dimmed, and said.
    for (const section of this.nestedSections) section.classList.toggle('ew-stale', this.current !== undefined && this.currentIndex !== i);
    let model;
    try {
      model = await this.snapshot(i);
      // The background lay-out may have just let this snapshot go: load it again.
      if (model.disposed) model = await this.snapshot(i);
    } catch (error) {
      if (this.index === i) this.loading.textContent = `Step ${int(entry.step)} could not be loaded: ${error.message}`;
      this.resolveFirst.reject(error);
      throw error;
    }
    if (this.index !== i) return;
    this.#provisionalMap(i, model).catch(() => {});
    this.loading.textContent = '';
    this.current = model;
    this.currentIndex = i;
    this.used = [...this.used.filter((k) => k !== i), i];
    this.resolveFirst.resolve(model);
    if (this.nearest.model !== model) this.nearest.model = model;
    if (this.map.model !== model) this.map.model = model;
    this.#evict();
    await Promise.all([this.nearest.updated, this.map.updated]);
    if (this.index !== i) return;
    for (const section of this.nestedSections) section.classList.remove('ew-stale');
    /** The step shown by the nested widgets, as data-shown (the snapshot's index). */
    this.dataset.shown = String(i);
    this.dispatchEvent(new CustomEvent('ew-step', { bubbles: true, detail: { index: i, step: entry.step, model } }));
  }

  #evict() {
    while (this.used.length > this.keep) {
      const old = this.used.shift();
      const promise = this.loaded.get(old);
      this.loaded.delete(old);
      promise?.then((model) => { if (model !== this.current) model.dispose(); });
    }
  }

  #toggle() {
    if (this.timer) return this.#stop();
    this.play.textContent = 'Pause';
    this.play.setAttribute('aria-pressed', 'true');
    const startsOver = this.index >= this.snapshots.length - 1;
    if (startsOver) this.#go(0);
    const tick = async () => {
      if (this.index >= this.snapshots.length - 1) return this.#stop();
      // Wait for a map of the step shown before moving on: its UMAP, or the quick map shown
      // while the UMAP waits for the steps after it (laid out from the last step back).
      if (this.learnMap.groups && !this.learnMap.layouts[this.index] && !this.provisional[this.index]) {
        this.timer = setTimeout(tick, 200);
        return;
      }
      await this.#go(this.index + 1).catch(() => this.#stop());
      if (this.timer) this.timer = setTimeout(tick, 1200);
    };
    // The first move comes at once, as a player's Play does; from the last
    // step Play starts over, and step 0 is shown for a beat first.
    this.timer = setTimeout(tick, startsOver ? 1200 : 0);
  }

  #stop() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.play.textContent = 'Play';
    this.play.setAttribute('aria-pressed', 'false');
  }
}

// Its figures for a book: element.figure({ format, which }) and a control under it.
installFigures(TrainingSlider, {
  names: (slider) => [...(slider.learnMap?.positions ? ['training-map'] : []), ...(slider.lossCurve?.svg ? ['loss-curve'] : [])],
  load: () => import('./parts/figure-maps.js'),
});

// Attributes a framework may set as properties; the setters set the attributes.
settableAttributes(TrainingSlider, ['snapshots', 'keep']);
defineWidget('ew-training-slider', TrainingSlider);
