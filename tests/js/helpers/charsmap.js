// SentencePiece's precompiled_charsmap, built for the tests from a small
// map of replacements: a little-endian u32, the trie's size in bytes; the
// trie, a darts-clone double array of u32 units; the replacement strings,
// each ended by a NUL. A unit holds a label (its low byte; bit 31 for a
// value), a leaf flag (bit 8) and the offset (bits 10 up) that its node's
// position is XORed with to find its children (position ^ offset ^ byte)
// and its value (position ^ offset). The trie is built breadth first,
// each node's children at the first base (position ^ offset) where they
// all fit and that no other node has: a byte that leads nowhere from one
// node must not land on another node's child of that label (darts-clone
// keeps its bases unique for the same reason).

const utf8 = new TextEncoder();

/** The base64 charsmap of `replacements` ({ from: to }, strings). */
export function precompiledCharsmap(replacements) {
  // The strings, and each key's value: its string's offset.
  const strings = [];
  const values = new Map();
  let length = 0;
  for (const [from, to] of Object.entries(replacements)) {
    values.set(from, length);
    const bytes = utf8.encode(to);
    strings.push(...bytes, 0);
    length += bytes.length + 1;
  }
  // A trie of the keys' bytes: node = { children: Map(byte -> node), value }.
  const root = { children: new Map(), value: undefined };
  for (const [from, value] of values) {
    let node = root;
    for (const byte of utf8.encode(from)) {
      if (!node.children.has(byte)) node.children.set(byte, { children: new Map(), value: undefined });
      node = node.children.get(byte);
    }
    node.value = value;
  }
  const units = [0];
  const used = new Set([0]);
  const bases = new Set();
  const queue = [[root, 0]];
  for (let next = 0; next < queue.length; next++) {
    const [node, position] = queue[next];
    const labels = [...node.children.keys()];
    const slots = node.value === undefined ? labels : [0, ...labels];
    if (slots.length === 0) continue;
    let base = 1;
    while (bases.has(base) || slots.some((label) => used.has(base ^ label) || (base ^ label) === 0)) base++;
    bases.add(base);
    const offset = position ^ base;
    if (offset >= 2 ** 21) throw new Error('charsmap: the trie is too large for this builder');
    units[position] = (units[position] ?? 0) | (offset << 10) | (node.value === undefined ? 0 : 1 << 8);
    if (node.value !== undefined) {
      used.add(base);
      units[base] = (node.value | 2 ** 31) >>> 0;
    }
    for (const label of labels) {
      const child = base ^ label;
      used.add(child);
      units[child] = label;
      queue.push([node.children.get(label), child]);
    }
  }
  // Every child lookup stays in the array (the Rust reader does not check
  // bounds): a node's children span its base with any low byte, as the
  // 256-unit blocks of darts-clone ensure.
  const count = Math.max(...used, ...[...bases].map((base) => base | 0xff)) + 1;
  const bytes = new Uint8Array(4 + 4 * count + strings.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 4 * count, true);
  for (let i = 0; i < count; i++) view.setUint32(4 + 4 * i, (units[i] ?? 0) >>> 0, true);
  bytes.set(strings, 4 + 4 * count);
  return Buffer.from(bytes).toString('base64');
}
