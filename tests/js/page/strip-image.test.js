// A strip's picture (web/widgets/parts/color.js stripImage, legend): a BMP
// written by hand, read back here byte by byte as a BMP reader would, every
// pixel the colour the page gives its number; in jsdom, which has no canvas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { colorOf, legend, stripImage } from '../../../web/widgets/parts/color.js';

let dom;
before(() => {
  dom = new JSDOM('<!doctype html>');
  globalThis.document = dom.window.document;
});
after(() => {
  delete globalThis.document;
  dom.window.close();
});

/** The pixels of a one-row, 24-bit, uncompressed BMP data URL, as 'rgb(r, g, b)', checking its headers. */
function readBmp(url) {
  const prefix = 'data:image/bmp;base64,';
  assert.ok(url.startsWith(prefix), url.slice(0, 40));
  const bytes = Buffer.from(url.slice(prefix.length), 'base64');
  assert.equal(bytes.toString('latin1', 0, 2), 'BM');
  assert.equal(bytes.readUInt32LE(2), bytes.length, 'the file size in the header');
  const start = bytes.readUInt32LE(10);
  assert.equal(bytes.readUInt32LE(14), 40, 'BITMAPINFOHEADER');
  const width = bytes.readInt32LE(18), height = bytes.readInt32LE(22);
  assert.equal(height, 1);
  assert.equal(bytes.readUInt16LE(26), 1, 'one plane');
  assert.equal(bytes.readUInt16LE(28), 24, '24 bits a pixel');
  assert.equal(bytes.readUInt32LE(30), 0, 'no compression');
  // A row is padded to a multiple of 4 bytes.
  assert.equal(bytes.length - start, Math.ceil((width * 3) / 4) * 4);
  return Array.from({ length: width }, (_, i) => {
    const at = start + 3 * i;
    return `rgb(${bytes[at + 2]}, ${bytes[at + 1]}, ${bytes[at]})`;  // stored blue, green, red
  });
}

test('a strip is an <img> of its numbers, one pixel each, in the colours of the scale, any width', () => {
  for (const width of [1, 2, 3, 4, 5, 127, 128, 2048]) {
    const data = Float32Array.from({ length: width }, (_, i) => Math.sin(i * 1.7) * 0.8);
    data[0] = NaN;  // the middle colour, as the tables draw it
    if (width > 2) data[1] = -5;  // past the limit: the end colours
    if (width > 3) data[2] = 5;
    const image = stripImage(data, width, 0.5);
    assert.equal(image.localName, 'img');
    assert.equal(image.alt, '');
    assert.deepEqual(readBmp(image.src), Array.from(data, (value) => colorOf(value, 0.5)), `${width} numbers`);
  }
});

test('a strip of no numbers has no picture; a scale of no size colours every number as zero', () => {
  assert.equal(stripImage(new Float32Array(0), 0, 1).getAttribute('src'), null);
  const data = Float32Array.of(-1, 0, 1);
  assert.deepEqual(readBmp(stripImage(data, 3, 0).src), Array.from(data, (value) => colorOf(value, 0)));
});

test('the legend\'s bar runs through the scale, blue to white to red, the same image for every legend', () => {
  const bars = [legend(2), legend(0.5)].map((figure) => figure.querySelector('.ew-legend-bar'));
  assert.equal(bars[0].src, bars[1].src);
  const pixels = readBmp(bars[0].src);
  assert.equal(pixels.length, 256);
  assert.equal(pixels[0], colorOf(-1, 1));
  assert.equal(pixels[255], colorOf(1, 1));
  assert.equal(pixels[127], colorOf(-0.5 / 255, 1));
});
