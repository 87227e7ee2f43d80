/**
 * Stands in for core's Node-only HTML backend (parse5 replayed into linkedom). In a browser core
 * parses HTML with the native DOMParser and never calls these; aliasing them here keeps ~700 KB
 * of DOM emulation out of the static folder (linkedom also does not bundle for browsers).
 */
function nodeOnly(): never {
  throw new Error('The parse5/linkedom HTML backend is for Node; browsers use DOMParser.');
}

export const parse = nodeOnly;
export const parseHTML = nodeOnly;
