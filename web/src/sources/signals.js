// AbortSignal handling shared by every source.

// What a fired signal rejects with: its reason (an AbortError unless abort() was given another).
export const abortReason = (signal) => signal.reason ?? new DOMException('The load was aborted', 'AbortError');

/** Throws the signal's reason once it has fired. */
export function checkSignal(signal) {
  if (signal?.aborted) throw abortReason(signal);
}
