// embeddings-and-position/widgets/definitions: when the widgets' elements
// are defined (docs/embedding.md, "Defining later"). Import it before the
// widgets' modules.

/** Defines the element `name` now, unless definitions are held back (then at defineDeferredWidgets()). */
export function defineWidget(name: string, constructor: CustomElementConstructor): void;

/**
 * Holds back the definitions of the widget modules imported from now on,
 * but those named in `except`, until defineDeferredWidgets().
 */
export function deferWidgetDefinitions(options?: { except?: string[] }): void;

/** Defines every element held back, in the order their modules were imported; then stops holding. */
export function defineDeferredWidgets(): void;
/**
 * The same, one name at a time, each in a task of its own (a page's many
 * widgets of one name upgrade together); defineDeferredWidgets() meanwhile
 * defines the rest at once. Resolves once every held element is defined.
 */
export function defineDeferredWidgetsInTurns(): Promise<void>;
