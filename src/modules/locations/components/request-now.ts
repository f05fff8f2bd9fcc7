/** The instant a server render judges 'today' and 'open now' by. */
export function requestNow(): Date {
  return new Date();
}
