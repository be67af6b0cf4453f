// Small made-up stories in TinyStories' shape, for the training smoke test
// where the TinyStories corpus is not at hand (a clean machine: the corpus
// never enters the repository). The pipeline's checks are about the tools,
// not the text, so any English with repeated words and <|endoftext|> lines
// between stories exercises every step: BPE merges, encoding, training,
// export. Deterministic: the same seed gives the same bytes.
import { uniformRandom } from '../../js/helpers/text.js';

const names = ['Lily', 'Max', 'Tom', 'Sue', 'Ben', 'Mia', 'Sam', 'Anna', 'Tim', 'Lucy', 'Jack', 'Emma', 'Leo', 'Zoe', 'Kate', 'Joe'];
const animals = ['cat', 'dog', 'bird', 'fish', 'frog', 'bunny', 'duck', 'bear', 'mouse', 'horse', 'turtle', 'puppy', 'kitten', 'owl'];
const things = ['ball', 'kite', 'box', 'hat', 'cake', 'boat', 'flower', 'book', 'toy car', 'red balloon', 'shiny stone',
  'blue cup', 'small drum', 'yellow truck', 'doll', 'crayon', 'apple', 'cookie', 'blanket', 'puzzle'];
const places = ['park', 'garden', 'forest', 'beach', 'house', 'school', 'river', 'big tree', 'farm', 'zoo', 'hill',
  'kitchen', 'market', 'pond', 'playground', 'castle'];
const feelings = ['happy', 'sad', 'scared', 'excited', 'tired', 'proud', 'surprised', 'angry', 'curious', 'lonely',
  'brave', 'sleepy', 'thankful'];
const openings = ['Once upon a time', 'One day', 'Long ago', 'Yesterday', 'One sunny morning', 'Every summer',
  'On a rainy afternoon', 'In a quiet town'];
const actions = ['jumped over a puddle', 'climbed the ladder', 'sang a funny song', 'found a secret door',
  'painted a picture', 'baked some bread', 'looked under the bed', 'counted the stars', 'danced in the rain',
  'built a tower of blocks', 'whispered a wish', 'followed the butterfly'];
const endings = ['From that day on, they were best friends.', 'They learned that sharing is kind.',
  'Mom gave them a warm hug.', 'The sun went down, and everyone smiled.', 'It was the best day ever.',
  'They promised to come back tomorrow.'];

/**
 * About `bytes` bytes of stories, each followed by an <|endoftext|> line.
 * @param {number} bytes
 * @param {number} [seed]
 */
export function madeUpStories(bytes, seed = 1) {
  const next = uniformRandom(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const stories = [];
  let size = 0;
  while (size < bytes) {
    const hero = pick(names);
    let friend = pick(names);
    if (friend === hero) friend = names[(names.indexOf(hero) + 1) % names.length];
    const animal = pick(animals), thing = pick(things), place = pick(places);
    const count = 2 + Math.floor(next() * 8);
    const lines = [
      `${pick(openings)}, there was a little ${next() < 0.5 ? 'girl' : 'boy'} named ${hero}.`,
      `${hero} had ${count} ${thing}s and a ${animal} that ${pick(actions)}.`,
      `They went to the ${place} to play. "Look!" said ${hero}. "It's a ${pick(things)}!"`,
      `${friend} was ${pick(feelings)}, but ${hero} said, "Don't worry, we can share."`,
      `Then the ${pick(animals)} ${pick(actions)}, and ${friend} ${pick(actions)}.`,
      `At the end of the day, ${hero} and ${friend} were ${pick(feelings)} and went home. ${pick(endings)}`,
    ];
    const story = `${lines.join(' ')}\n<|endoftext|>\n`;
    stories.push(story);
    size += Buffer.byteLength(story);
  }
  return stories.join('');
}
