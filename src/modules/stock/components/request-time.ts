/** The time a server render judges 'just arrived' and 'recently sold' by, in epoch ms. */
export function requestTime(): number {
  return Date.now();
}
