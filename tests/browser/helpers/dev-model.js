// A small model with some structure, for trying the page without the default
// model: words of a kind (colours, numbers, names, verbs) have similar rows,
// nearby positions have similar rows, and F16 snapshots go from random
// numbers to the final tables as the default model's snapshots do.
//
//   node tests/browser/helpers/dev-model.js OUT_DIR   writes the files
//   node tests/browser/helpers/dev-model.js OUT_DIR --rotary   a model without a position table
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTokenizerJson, writeSafetensors, seededRandom } from '../../js/helpers/fixtures.js';

const groups = {
  people: [' Lily', 'Lily', ' Max', 'Max', ' Tom', ' Sue', ' Ben', ' Mia', ' mom', ' dad'],
  kids: [' girl', ' boy', ' kid', ' child', ' baby', ' friend'],
  numbers: [' one', ' two', ' three', ' four', ' five', ' 1', ' 2', ' 3', ' 4', ' 5'],
  colours: [' red', ' blue', ' green', ' yellow', ' pink', ' purple', ' orange', ' white', ' black'],
  moving: [' ran', ' run', ' walked', ' walk', ' jumped', ' jump', ' played', ' play'],
  seeing: [' saw', ' see', ' looked', ' look', ' watched'],
  animals: [' cat', ' dog', ' bird', ' fish', ' bunny', ' bear'],
  places: [' park', ' house', ' tree', ' garden', ' school', ' room'],
  small: [' the', ' a', ' in', ' at', ' and', ' to', ' was', ' with', ' of', ' on'],
  feelings: [' happy', ' sad', ' scared', ' angry', ' excited', ' tired'],
};

/** Float32 to IEEE half-precision bits (round to nearest even). */
export function toHalf(value) {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  let e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    let half = mantissa >> shift;
    const rest = mantissa & ((1 << shift) - 1), midway = 1 << (shift - 1);
    if (rest > midway || (rest === midway && (half & 1))) half++;
    return sign | half;
  }
  let half = (e << 10) | (mantissa >> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++;
  return sign | half;
}

function halfBytes(data) {
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = toHalf(data[i]);
  return new Uint8Array(out.buffer);
}

/** Float32 numbers as bfloat16 bytes: each number's top half (rounded towards zero). */
function bfloatBytes(data) {
  const bits = new Uint32Array(Float32Array.from(data).buffer);
  return new Uint8Array(Uint16Array.from(bits, (b) => b >>> 16).buffer);
}

/**
 * The files of a development model, as bytes, keyed by their path under the
 * model folder (model.safetensors, config.json, tokenizer.json,
 * snapshots/index.json, snapshots/step-NNNNNN.safetensors).
 */
export function makeDevModel({ width = 128, context = 128, extraRows = 37, seed = 7, rotary = false, dtype = 'F32' } = {}) {
  const words = Object.values(groups).flat();
  const tokenizerJson = makeTokenizerJson(words);
  const vocabSize = Object.keys(JSON.parse(tokenizerJson).model.vocab).length + extraRows;
  const random = seededRandom(seed);
  const vocab = JSON.parse(tokenizerJson).model.vocab;
  const byteLevel = (text) => text.replace(/ /g, 'Ġ');

  const wte = new Float32Array(vocabSize * width);
  for (let i = 0; i < wte.length; i++) wte[i] = random() * 0.08;
  for (const members of Object.values(groups)) {
    const centre = Float32Array.from({ length: width }, () => random() * 0.2);
    for (const word of members) {
      const id = vocab[byteLevel(word)];
      // A word and its spaced form ("Lily", "·Lily") share more than the group does.
      const twin = word.startsWith(' ') ? undefined : vocab[byteLevel(` ${word}`)];
      for (let c = 0; c < width; c++) {
        wte[id * width + c] = centre[c] + random() * 0.12;
        if (twin !== undefined) wte[id * width + c] = 0.5 * wte[id * width + c] + 0.5 * centre[c];
      }
    }
  }
  // Positions: slow waves, so nearby places point the same way and far ones do not.
  const wpe = new Float32Array(context * width);
  for (let c = 0; c < width; c++) {
    const frequency = 0.5 + (c % 16) * 0.35, phase = random() * Math.PI * 2;
    for (let p = 0; p < context; p++) {
      wpe[p * width + c] = 0.05 * Math.cos((p / context) * frequency * Math.PI + phase) + random() * 0.004;
    }
  }
  const layers = 2;
  if (rotary) return rotaryModel({ wte, vocabSize, width, layers, tokenizerJson });
  // The tables in 16 bits, as today's checkpoints store them, when asked.
  const stored = (data) => (dtype === 'F16' ? halfBytes(data) : dtype === 'BF16' ? bfloatBytes(data) : data);
  const tensors = [
    { name: 'transformer.wte.weight', dtype, shape: [vocabSize, width], data: stored(wte) },
    { name: 'transformer.wpe.weight', dtype, shape: [context, width], data: stored(wpe) },
  ];
  for (let l = 0; l < layers; l++) {
    tensors.push({ name: `transformer.h.${l}.mlp.c_fc.weight`, shape: [width, 4 * width], data: new Float32Array(4 * width * width) });
  }
  const files = new Map();
  files.set('model.safetensors', writeSafetensors(tensors, { format: 'pt' }));
  files.set('config.json', new TextEncoder().encode(JSON.stringify({
    model_type: 'gpt2', vocab_size: vocabSize, n_embd: width, n_positions: context, n_layer: layers, n_head: 4,
  })));
  files.set('tokenizer.json', new TextEncoder().encode(tokenizerJson));

  // Snapshots: from random numbers (step 0) towards the final tables, at
  // the default model's 13 steps, spaced on a log scale.
  const initial = random;
  const wte0 = Float32Array.from(wte, () => initial() * 0.04);
  const wpe0 = Float32Array.from(wpe, () => initial() * 0.02);
  const steps = [0, 2, 4, 9, 18, 38, 77, 160, 330, 682, 1408, 2906, 6000];
  const index = [];
  steps.forEach((step, k) => {
    const t = k / (steps.length - 1);
    const mix = (a, b) => Float32Array.from(a, (x, i) => (1 - t) * x + t * b[i]);
    const name = `step-${String(step).padStart(6, '0')}.safetensors`;
    files.set(`snapshots/${name}`, writeSafetensors([
      { name: 'transformer.wte.weight', dtype: 'F16', shape: [vocabSize, width], data: halfBytes(mix(wte0, wte)) },
      { name: 'transformer.wpe.weight', dtype: 'F16', shape: [context, width], data: halfBytes(mix(wpe0, wpe)) },
    ], { step: String(step) }));
    index.push({ file: name, step, tokens_seen: step * 4096, train_loss: k ? 8.3 - 5 * t : null, val_loss: 8.3 - 5 * t });
  });
  files.set('snapshots/index.json', new TextEncoder().encode(JSON.stringify({
    tensors: ['transformer.wte.weight', 'transformer.wpe.weight'], dtype: 'F16', snapshots: index,
  })));
  // The loss curve the training slider draws (training-curve.json's layout): a made-up fall, every 50 steps.
  const loss = (step) => 2.4 + 5.9 / (1 + step / 60);
  const curveRows = (steps) => steps.map((step) => [step, step * 4096, Number(loss(step).toFixed(4))]);
  files.set('training-curve.json', new TextEncoder().encode(JSON.stringify({
    columns: { train: ['step', 'tokens_seen', 'loss'], val: ['step', 'tokens_seen', 'loss'] },
    train: curveRows(Array.from({ length: 120 }, (_, k) => 50 * (k + 1))),
    val: curveRows([...new Set([...steps, ...Array.from({ length: 24 }, (_, k) => 250 * (k + 1))])].sort((a, b) => a - b)),
    summary: { steps: 6000, final_val_loss: Number(loss(6000).toFixed(4)) },
  })));
  return files;
}

/**
 * The same token table as a model with rotary positions names it (Llama,
 * Qwen, Gemma): model.embed_tokens.weight, no position table, a LlamaConfig.
 */
function rotaryModel({ wte, vocabSize, width, layers, tokenizerJson }) {
  const tensors = [{ name: 'model.embed_tokens.weight', shape: [vocabSize, width], data: wte }];
  for (let l = 0; l < layers; l++) {
    tensors.push({ name: `model.layers.${l}.input_layernorm.weight`, shape: [width], data: new Float32Array(width).fill(1) });
  }
  const files = new Map();
  files.set('model.safetensors', writeSafetensors(tensors, { format: 'pt' }));
  files.set('config.json', new TextEncoder().encode(JSON.stringify({
    model_type: 'llama', vocab_size: vocabSize, hidden_size: width, max_position_embeddings: 8192,
    num_hidden_layers: layers, num_attention_heads: 4, rope_theta: 500000, tie_word_embeddings: true,
  })));
  // As Llama 3's: a BOS before every text when special tokens are asked for.
  const tokenizer = JSON.parse(tokenizerJson);
  const bos = tokenizer.added_tokens[0];
  tokenizer.post_processor = {
    type: 'Sequence',
    processors: [tokenizer.post_processor, {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: bos.content, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [{ SpecialToken: { id: bos.content, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
      special_tokens: { [bos.content]: { id: bos.content, ids: [bos.id], tokens: [bos.content] } },
    }],
  };
  files.set('tokenizer.json', new TextEncoder().encode(JSON.stringify(tokenizer)));
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node tests/browser/helpers/dev-model.js OUT_DIR');
    process.exit(2);
  }
  for (const [path, bytes] of makeDevModel({ rotary: process.argv.includes('--rotary') })) {
    await mkdir(join(out, path, '..'), { recursive: true });
    await writeFile(join(out, path), bytes);
  }
  console.log(`wrote a development model to ${out}`);
}
