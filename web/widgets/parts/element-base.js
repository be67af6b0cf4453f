// The class every element of the package extends. Where there is a DOM it is
// HTMLElement. Where there is none (Node, a framework's server render, a
// Worker, Vitest's node environment) it is a plain class, so that a widget's
// module imports there as anywhere: its class exists, defineWidget defines
// nothing, and nothing touches a DOM API. The browser later imports the same
// module again, with its DOM, and defines the element then (as GitHub's
// catalyst elements do; docs/design.md, "Import-safe everywhere").
export const ElementBase = typeof HTMLElement === 'function' ? HTMLElement : class ElementBase {};
