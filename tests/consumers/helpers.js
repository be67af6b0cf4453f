// What the consumer tests share: commands run with their output kept, the
// tarball packed and installed offline into a folder of apps, an app's
// folder, a plain static server, and the answers the apps must give.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listenOnLoopback } from '../../tools/serve.mjs';
import { loadModel, rowView, cosine, ready, backend } from '../../web/index.js';

const run = promisify(execFile);
export const repository = fileURLToPath(new URL('../../', import.meta.url));
export const apps = fileURLToPath(new URL('apps/', import.meta.url));
export const bin = (name) => join(repository, 'node_modules/.bin', name);

/** Runs a command in `cwd`; on failure, its output is in the error's message. */
export async function command(file, args, cwd, env = {}) {
  try {
    return await run(file, args, { cwd, maxBuffer: 1 << 24, env: { ...process.env, ...env } });
  } catch (error) {
    error.message = `${[file, ...args].join(' ')} in ${cwd} failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`;
    throw error;
  }
}

/** A promise's outcome as { result } or { error }, to be read (and thrown) by the test it belongs to. */
export const settled = (promise) => promise.then((result) => ({ result }), (error) => ({ error }));

export function outcome({ result, error }) {
  if (error) throw error;
  return result;
}

/**
 * A folder `work` of apps, made fresh, with the tarball as `npm publish`
 * would send it installed there from the file alone (the package depends on
 * nothing else). Returns the pack's manifest and `install(folder)`, which
 * installs the same tarball into another folder.
 */
export async function packedInto(work) {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const { stdout } = await command('npm', ['pack', '--json', '--pack-destination', work], repository);
  const pack = JSON.parse(stdout)[0];
  const install = (folder) => command('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, pack.filename)], folder);
  await writeFile(join(work, 'package.json'), '{ "name": "consumer-apps", "private": true }\n');
  await install(work);
  return { pack, install };
}

/**
 * An app's folder in `work`: a package.json as a fresh app has, the one
 * node_modules the apps share (or `modules(folder)` makes its own), and its
 * files: `to: from` copies tests/consumers/apps/<from>, `to: { text }` writes the text.
 */
export async function app(work, name, files, { modules } = {}) {
  const folder = join(work, name);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'package.json'), `${JSON.stringify({ name: `${name}-app`, private: true, type: 'module' }, null, 2)}\n`);
  await (modules ? modules(folder) : symlink('../node_modules', join(folder, 'node_modules')));
  for (const [to, from] of Object.entries(files)) {
    await mkdir(join(folder, to, '..'), { recursive: true });
    await (typeof from === 'string' ? cp(join(apps, from), join(folder, to)) : writeFile(join(folder, to), from.text));
  }
  return folder;
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };

/**
 * The plainest static server: whole files, no range requests, no
 * Content-Security-Policy (a page's import map is an inline script).
 */
export async function staticServer(root) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
    try {
      const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  return { origin: await listenOnLoopback(server), close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The answers the apps must give: the package's own, computed here from the repository. */
export async function expectedAnswers() {
  const model = await loadModel();
  const id = (text) => model.tokenId(text);
  await ready;
  const expected = {
    backend,  // set once ready has resolved (a live binding)
    cosine: cosine(rowView(model.wte, id('·girl')), rowView(model.wte, id('·boy'))),
    nearest: model.nearest('·girl', 3).map(({ text }) => text),
    snapshots: JSON.parse(await readFile(join(repository, 'model/snapshots/index.json'), 'utf8')).snapshots.length,
  };
  model.dispose();
  return expected;
}
