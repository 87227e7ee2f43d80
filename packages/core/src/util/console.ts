const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Runs a synchronous library call with the global console diverted into a list, and puts the
 * console back before returning or throwing. Some dependencies (SheetJS) print diagnostics that
 * no option turns off; a library must not write to its host's console, and the messages can say
 * something worth a `warning`. Synchronous only: no other code can run while the console is
 * diverted, so concurrent parses and the host's own logging are never swallowed.
 */
export function captureConsole<T>(fn: () => T): { value: T; messages: string[] } {
  const messages: string[] = [];
  const saved = METHODS.map((m) => [m, console[m]] as const);
  for (const m of METHODS) console[m] = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
  try {
    const value = fn();
    if (value && typeof (value as { then?: unknown }).then === 'function')
      throw new TypeError('captureConsole takes a synchronous function');
    return { value, messages };
  } finally {
    for (const [m, original] of saved) console[m] = original;
  }
}
