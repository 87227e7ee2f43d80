/**
 * Grows a WebAssembly memory it keeps for the life of its thread, as PDFium or tesseract do with
 * a large document: wasm memory never shrinks. Returns the thread it ran on.
 */
const kept: WebAssembly.Memory[] = [];

export async function run(input: { mb: number }) {
  const { threadId } = await import('node:worker_threads');
  if (input.mb > 0) {
    const memory = new WebAssembly.Memory({ initial: 0, maximum: 65536 });
    memory.grow(Math.ceil((input.mb * 2 ** 20) / 65536));
    new Uint8Array(memory.buffer).fill(1);
    kept.push(memory);
  }
  return { threadId };
}
