// A map computed on this thread, where there is no Worker (Node) or it
// cannot start: the work goes in slices, each call into WebAssembly kept to
// about SLICE_MS, and the event loop gets a turn between slices, so a page
// that computes a map never freezes (no task much over 50 ms) and an
// AbortSignal can stop it between two slices. It runs the same WebAssembly
// as the Worker, so it gives the same bits.
import { checkSignal } from '../sources/index.js';
import { now, yieldToEventLoop } from '../event-loop.js';
import { LayoutJob, tableBytes } from './layout-run.js';
import { layoutInstance, releaseLargeInstance } from './instance.js';
import { jobSpec } from './options.js';

/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 12;
/** Bytes of a table copied per task (to the Worker, or into the instance between slices). */
export const CHUNK_BYTES = 8 * 1048576;

/** A map computed on this thread, in slices between turns of the event loop: LayoutJob's result. */
export async function mapInSlices(table, settings, caller) {
  const { module, pool } = await layoutInstance();
  checkSignal(settings.signal);
  const spec = { ...jobSpec(table, settings), caller };
  const job = new LayoutJob(module, spec);
  try {
    // The table's bytes first, a chunk per slice.
    const total = table.data.byteLength;
    for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
      job.write(offset, tableBytes(table.data).subarray(offset, offset + CHUNK_BYTES));
      if (offset + CHUNK_BYTES < total) {
        await yieldToEventLoop();
        checkSignal(settings.signal);
      }
    }
    job.start();
    // Edges sampled per call in the descent, tuned as it goes to about
    // SLICE_MS / 2 a call; it at most doubles from one call to the next, as
    // a call that ends an epoch may have had only a few edges left.
    let budget = 4096;
    let sliceStart = now();
    for (;;) {
      const optimising = job.optimising;
      const before = now();
      const more = job.advance(budget, pool);
      const took = now() - before;
      if (optimising) budget = Math.max(256, Math.min(1 << 22, Math.round(budget * Math.min(2, (SLICE_MS / 2) / Math.max(took, 0.05)))));
      if (!more) break;
      if (now() - sliceStart >= SLICE_MS) {
        settings.onProgress(job.progress());
        await yieldToEventLoop();
        checkSignal(settings.signal);
        sliceStart = now();
      }
    }
    return job.result();
  } finally {
    job.free();
    releaseLargeInstance(module);
  }
}
