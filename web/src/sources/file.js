// Files on disk (Node): a path or a file: URL, read by offset. Only
// platform/node.js imports this module (the package's "#platform" in Node).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { checkSignal } from './signals.js';

// What a path names when it is not a regular file, for the message.
function kindOfFile(info) {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'something other than a regular file';
}

export async function fileSource(path, name, signal) {
  checkSignal(signal);
  let handle;
  try {
    // Without blocking: opening a FIFO for reading would otherwise wait for
    // a writer, forever.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`${name}: cannot open the file (${error.code ?? error.message})`);
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new Error(`${name}: is ${kindOfFile(info)}, not a file`);
  }
  const { size } = info;
  return {
    name,
    async size() { return size; },
    async read(offset, length) {
      const out = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        checkSignal(signal);
        const { bytesRead } = await handle.read(out, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error(`${name}: the file ended early (it changed while being read?)`);
        done += bytesRead;
      }
      return out;
    },
    async close() { await handle.close(); },
  };
}
