import '@testing-library/jest-dom';

/**
 * jest-fixed-jsdom swaps in Node's FormData, which cannot read a jsdom <form>. React 19 builds one
 * from the form when a submit handler starts a transition (react-router navigations do), so the
 * tests get a FormData that copies the form's named fields instead.
 */
const NodeFormData = globalThis.FormData;
class FormFormData extends NodeFormData {
  constructor(form?: unknown) {
    super();
    if (form instanceof HTMLFormElement) {
      for (const el of Array.from(form.elements)) {
        const field = el as HTMLInputElement;
        if (field.name && !field.disabled) this.append(field.name, field.value);
      }
    }
  }
}
globalThis.FormData = FormFormData as typeof FormData;

/**
 * jsdom lays nothing out, so it has no scrolling and reports every call as "not implemented";
 * screens that bring content into view call it, and a test checks what is shown, not the scroll.
 */
// (Not in the node-environment tests, such as the bundle budget, which have no window.)
if (typeof window !== 'undefined') window.scrollTo = (() => undefined) as typeof window.scrollTo;
