// A fixture's three files written into a temporary folder, for the tests
// that load a model by its file paths.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes model.safetensors, config.json and tokenizer.json of `fixture` into a new folder; returns its path. */
export async function writeModelFiles(fixture, prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(dir, 'model.safetensors'), fixture.weights);
  await writeFile(join(dir, 'config.json'), JSON.stringify(fixture.config));
  await writeFile(join(dir, 'tokenizer.json'), fixture.tokenizer);
  return dir;
}

/** The paths of the files writeModelFiles wrote into `dir`, as loadModel takes them. */
export const modelPaths = (dir) => ({
  weights: join(dir, 'model.safetensors'),
  config: join(dir, 'config.json'),
  tokenizer: join(dir, 'tokenizer.json'),
});
