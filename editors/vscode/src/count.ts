// The counts the extension writes itself, as the server's codex/count
// writes its own: numbers grouped in thousands, nouns that agree. One
// place, so "1 chapters" or "121804 words" cannot come back in a corner.

/** thousands writes n with commas: 90000 → "90,000". */
export function thousands(n: number): string {
  const s = Math.trunc(Math.abs(n)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${s}` : s;
}

/** countOf writes n with the noun that agrees with it: countOf(1, "chapter") is "1 chapter", countOf(3, "entry", "entries") "3 entries". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}
