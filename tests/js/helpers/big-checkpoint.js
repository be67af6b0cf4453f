// Generated BF16 checkpoints of the shapes today's models have (Qwen 2.5
// 0.5B's 151,936 × 896 token table, Llama 3.2 1B's 128,256 × 2,048), written
// to disk a block of rows at a time; never committed. Each row is a function
// of its index alone, so a test can compute any row again without holding
// the table; `twins` pairs rows so that nearest() has a known answer.
import { open } from 'node:fs/promises';

const BLOCK_ROWS = 2048;

/** Row `r`'s numbers as BF16 bits (into `out`, `width` of them). */
function rowBits(r, width, seed, out) {
  let state = (Math.imul(r + 1, 2654435761) ^ seed) >>> 0 || 1;
  const f32 = new Float32Array(1), bits = new Uint32Array(f32.buffer);
  for (let c = 0; c < width; c++) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    f32[0] = (state / 4294967296 - 0.5) * 0.1;
    out[c] = bits[0] >>> 16;  // truncated to BF16: the table's numbers are these
  }
  return out;
}

/** BF16 bits to the float32 the loader gives (exact: BF16 is float32's top half). */
export function bf16ToFloat(bits) {
  const f32 = new Float32Array(1);
  new Uint32Array(f32.buffer)[0] = bits << 16;
  return f32[0];
}

/**
 * Writes model.embed_tokens.weight (rows × width, BF16) as a safetensors
 * file at `path`. twins: [[a, b], …] makes row b row a plus a small
 * change, so b is a's nearest row. dtype 'F32' writes the same numbers as
 * float32 (for benchmarks: a 16-bit table beside its float32 conversion).
 * Returns row(r): row r as float32.
 */
export async function writeBf16Checkpoint(path, { rows, width, seed = 17, twins = [], dtype = 'BF16' }) {
  const bytesPerNumber = dtype === 'F32' ? 4 : 2;
  const twinOf = new Map(twins.map(([a, b]) => [b, a]));
  const row = (r) => {
    const out = new Uint16Array(width);
    const source = twinOf.get(r);
    rowBits(source ?? r, width, seed, out);
    if (source !== undefined) out[r % width] ^= 0x0001;  // one number's last bit: cosine just under 1
    return out;
  };
  let header = JSON.stringify({
    __metadata__: { format: 'pt' },
    'model.embed_tokens.weight': { dtype, shape: [rows, width], data_offsets: [0, rows * width * bytesPerNumber] },
  });
  while (header.length % 8) header += ' ';
  const prefix = new Uint8Array(8 + header.length);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(header.length), true);
  prefix.set(new TextEncoder().encode(header), 8);
  const file = await open(path, 'w');
  try {
    await file.write(prefix);
    // A float32 number is its BF16 bits in the top half.
    const block = dtype === 'F32' ? new Uint32Array(BLOCK_ROWS * width) : new Uint16Array(BLOCK_ROWS * width);
    for (let first = 0; first < rows; first += BLOCK_ROWS) {
      const count = Math.min(BLOCK_ROWS, rows - first);
      for (let i = 0; i < count; i++) {
        const bits = row(first + i);
        for (let c = 0; c < width; c++) block[i * width + c] = dtype === 'F32' ? bits[c] << 16 : bits[c];
      }
      await file.write(new Uint8Array(block.buffer, 0, count * width * bytesPerNumber));
    }
  } finally {
    await file.close();
  }
  return (r) => Float32Array.from(row(r), bf16ToFloat);
}
