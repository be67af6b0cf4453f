// Generated checkpoints named as the common families name their tensors,
// with the config.json fields each family writes, over makeModel()'s tables
// and tokenizer (so the same ids and rows can be compared across namings).
import { makeModel, writeSafetensors } from './fixtures.js';

/**
 * Each family: its token table's name, its position table's (null for
 * rotary positions), the rows kept before position 0, a block's tensor and
 * its config.json.
 */
export const families = {
  'gpt2': { token: 'transformer.wte.weight', position: 'transformer.wpe.weight', offset: 0, block: 'transformer.h.0.ln_1.weight',
    config: (m) => ({ model_type: 'gpt2', vocab_size: m.vocabSize, n_embd: m.width, n_positions: m.context, n_layer: 1, n_head: 2 }) },
  'gpt2-bare': { token: 'wte.weight', position: 'wpe.weight', offset: 0, block: 'h.0.ln_1.weight',
    config: (m) => ({ model_type: 'gpt2', vocab_size: m.vocabSize, n_embd: m.width, n_ctx: m.context }) },
  'llama': { token: 'model.embed_tokens.weight', position: null, offset: 0, block: 'model.layers.0.input_layernorm.weight',
    config: (m) => ({ model_type: 'llama', vocab_size: m.vocabSize, hidden_size: m.width, max_position_embeddings: 131072,
      num_hidden_layers: 1, num_attention_heads: 2, tie_word_embeddings: true, rope_theta: 500000 }) },
  'qwen2': { token: 'model.embed_tokens.weight', position: null, offset: 0, block: 'model.layers.0.input_layernorm.weight',
    config: (m) => ({ model_type: 'qwen2', vocab_size: m.vocabSize, hidden_size: m.width, max_position_embeddings: 32768,
      num_hidden_layers: 1, num_attention_heads: 14, tie_word_embeddings: true }) },
  'gemma': { token: 'model.embed_tokens.weight', position: null, offset: 0, block: 'model.layers.0.input_layernorm.weight',
    config: (m) => ({ model_type: 'gemma3_text', vocab_size: m.vocabSize, hidden_size: m.width, max_position_embeddings: 32768,
      num_hidden_layers: 1, num_attention_heads: 4, head_dim: 256 }) },
  'phi': { token: 'model.embed_tokens.weight', position: null, offset: 0, block: 'model.layers.0.mlp.fc1.weight',
    config: (m) => ({ model_type: 'phi', vocab_size: m.vocabSize, hidden_size: m.width, max_position_embeddings: 2048, num_hidden_layers: 1 }) },
  'gpt-neox': { token: 'gpt_neox.embed_in.weight', position: null, offset: 0, block: 'gpt_neox.layers.0.attention.dense.weight',
    config: (m) => ({ model_type: 'gpt_neox', vocab_size: m.vocabSize, hidden_size: m.width, max_position_embeddings: 2048, num_hidden_layers: 1 }) },
  'opt': { token: 'model.decoder.embed_tokens.weight', position: 'model.decoder.embed_positions.weight', offset: 2,
    block: 'model.decoder.layers.0.fc1.weight',
    config: (m) => ({ model_type: 'opt', vocab_size: m.vocabSize, hidden_size: m.width, word_embed_proj_dim: m.width,
      max_position_embeddings: m.context, num_hidden_layers: 1 }) },
};

/**
 * makeModel()'s model saved under a family's names. For OPT the position
 * table gets two leading rows (numbers no position uses) before wpe's.
 */
export function makeFamilyModel(family, options = {}) {
  const spec = families[family];
  if (!spec) throw new Error(`no family ${family}`);
  const model = makeModel(options);
  const tensors = [
    { name: spec.block, shape: [model.width], data: new Float32Array(model.width).fill(1) },
    { name: spec.token, shape: [model.vocabSize, model.width], data: model.wte },
  ];
  if (spec.position) {
    const rows = new Float32Array((model.context + spec.offset) * model.width).fill(99);
    rows.set(model.wpe, spec.offset * model.width);
    tensors.push({ name: spec.position, shape: [model.context + spec.offset, model.width], data: rows });
  }
  return { ...model, weights: writeSafetensors(tensors, { format: 'pt' }), config: spec.config(model), spec };
}
