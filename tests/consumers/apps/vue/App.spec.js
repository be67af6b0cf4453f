// @vitest-environment jsdom
// App.vue mounted by Vue itself (vite.config.js, with @vitejs/plugin-vue),
// in jsdom: the model kept in Vue's ref() is handed to <ew-trace-table>
// through Vue's Proxy, and the widget shows its trace.
import { test, expect, vi } from 'vitest';
import { createApp, nextTick } from 'vue';
import 'embeddings-and-position/widgets';
import App from './App.vue';

test('a model in ref(), handed to a widget by Vue', async () => {
  const warnings = vi.spyOn(console, 'warn');
  const root = document.createElement('div');
  document.body.append(root);
  createApp(App).mount(root);
  await vi.waitFor(() => expect(root.querySelector('ew-trace-table')).not.toBeNull(), { timeout: 30000 });
  const trace = root.querySelector('ew-trace-table');
  await vi.waitFor(() => expect(trace.dataset.state).toBe('ready'), { timeout: 30000 });
  await nextTick();
  expect(trace.trace.tokens.map((token) => token.text)).toEqual(['Lily', '·saw', '·Max']);
  expect(trace.textContent).toContain('·Max');
  expect(root.querySelector('.closest').textContent).toBe('·boy');
  expect(warnings.mock.calls.flat().join('\n')).not.toMatch(/Failed to resolve component|Vue warn/);
}, 60000);
