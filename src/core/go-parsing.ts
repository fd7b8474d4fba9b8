/**
 * Parsers that behave exactly like the Go standard library functions Flipt's matchers are defined by. JavaScript's
 * own helpers disagree on inputs users do send: Number('') is 0 and Number(' 1') is 1 where Go refuses both,
 * parseFloat('1x') is 1, Number('1_000') is NaN where Go reads 1000, and String.prototype.trim() strips U+FEFF but
 * keeps U+0085, the opposite of Go.
 */

/** Go's unicode.IsSpace: the ASCII controls \t \n \v \f \r, space, NEL, NBSP, and Unicode's other White_Space. */
export function isGoSpace(code: number): boolean {
  if (code <= 0xff) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x85 || code === 0xa0;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Index of the first character strings.TrimSpace keeps (s.length when all of s is space). */
export function goTrimStartIndex(s: string): number {
  let i = 0;
  while (i < s.length && isGoSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Index just past the last character strings.TrimSpace keeps. */
export function goTrimEndIndex(s: string): number {
  let j = s.length;
  while (j > 0 && isGoSpace(s.charCodeAt(j - 1))) j--;
  return j;
}

/** Go's strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  const start = goTrimStartIndex(s);
  if (start === s.length) return '';
  const end = goTrimEndIndex(s);
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** `len(strings.TrimSpace(s)) == 0`, without building the trimmed string. */
export function isGoBlank(s: string): boolean {
  return goTrimStartIndex(s) === s.length;
}

/** Go's strconv.ParseBool; null where Go returns an error. */
export function parseGoBool(s: string): boolean | null {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false;
    default:
      return null;
  }
}

const CH_PLUS = 0x2b;
const CH_MINUS = 0x2d;
const CH_DOT = 0x2e;
const CH_0 = 0x30;
const CH_9 = 0x39;
const CH_UNDERSCORE = 0x5f;
const CH_LOWER_A = 0x61;
const CH_LOWER_E = 0x65;
const CH_LOWER_F = 0x66;
const CH_LOWER_P = 0x70;
const CH_LOWER_X = 0x78;

function isDigitCode(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

/** ASCII-only case folding, as Go's strconv does (`c | 0x20`); only meaningful for letters. */
function lowerCode(c: number): number {
  return c | 0x20;
}

function equalsIgnoreAsciiCase(s: string, from: number, lowerWord: string): boolean {
  if (s.length - from !== lowerWord.length) return false;
  for (let k = 0; k < lowerWord.length; k++) {
    const c = s.charCodeAt(from + k);
    const w = lowerWord.charCodeAt(k);
    if (c !== w && !(c >= 0x41 && c <= 0x5a && c + 0x20 === w)) return false;
  }
  return true;
}

/**
 * Go's strconv.ParseFloat(s, 64); null where Go returns an error. That includes overflow (Go reports ErrRange,
 * which Flipt treats like any other parse failure), but not underflow, which quietly yields zero in Go too.
 */
export function parseGoFloat(s: string): number | null {
  const n = s.length;
  if (n === 0) return null;

  let i = 0;
  let negative = false;
  const first = s.charCodeAt(0);
  if (first === CH_PLUS || first === CH_MINUS) {
    negative = first === CH_MINUS;
    i = 1;
  }
  // Go accepts "inf" and "infinity" with an optional sign, but "nan" only unsigned.
  if (equalsIgnoreAsciiCase(s, i, 'inf') || equalsIgnoreAsciiCase(s, i, 'infinity')) {
    return negative ? -Infinity : Infinity;
  }
  if (i === 0 && equalsIgnoreAsciiCase(s, 0, 'nan')) return NaN;

  let hex = false;
  if (i + 2 < n && s.charCodeAt(i) === CH_0 && lowerCode(s.charCodeAt(i + 1)) === CH_LOWER_X) {
    hex = true;
    i += 2;
  }
  const mantissaStart = i;
  let sawDot = false;
  let sawDigits = false;
  let underscores = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === CH_UNDERSCORE) {
      underscores = true;
    } else if (c === CH_DOT) {
      if (sawDot) break;
      sawDot = true;
    } else if (isDigitCode(c) || (hex && lowerCode(c) >= CH_LOWER_A && lowerCode(c) <= CH_LOWER_F)) {
      sawDigits = true;
    } else {
      break;
    }
  }
  if (!sawDigits) return null;
  const mantissaEnd = i;

  let exponentStart = -1;
  if (i < n && lowerCode(s.charCodeAt(i)) === (hex ? CH_LOWER_P : CH_LOWER_E)) {
    i++;
    if (i >= n) return null;
    exponentStart = i;
    const sign = s.charCodeAt(i);
    if (sign === CH_PLUS || sign === CH_MINUS) i++;
    if (i >= n || !isDigitCode(s.charCodeAt(i))) return null;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === CH_UNDERSCORE) underscores = true;
      else if (!isDigitCode(c)) break;
    }
  } else if (hex) {
    return null; // a hex float must carry a binary exponent
  }
  if (i !== n) return null;
  if (underscores && !goUnderscoresOk(s)) return null;

  const value = hex
    ? hexFloat(s, mantissaStart, mantissaEnd, exponentStart, negative)
    : Number(underscores ? s.replaceAll('_', '') : s);
  return Number.isFinite(value) ? value : null;
}

/** Go's rule for digit separators: an underscore must sit between two digits, or between a base prefix and a digit. */
function goUnderscoresOk(s: string): boolean {
  let i = 0;
  if (s.length >= 1 && (s.charCodeAt(0) === CH_PLUS || s.charCodeAt(0) === CH_MINUS)) i = 1;
  let saw = '^';
  let hex = false;
  if (s.length - i >= 2 && s.charCodeAt(i) === CH_0) {
    const p = lowerCode(s.charCodeAt(i + 1));
    if (p === 0x62 || p === 0x6f || p === CH_LOWER_X) {
      i += 2;
      saw = '0';
      hex = p === CH_LOWER_X;
    }
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isDigitCode(c) || (hex && lowerCode(c) >= CH_LOWER_A && lowerCode(c) <= CH_LOWER_F)) {
      saw = '0';
    } else if (c === CH_UNDERSCORE) {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/**
 * Value of an already validated hex float, correctly rounded (ties to even) like Go's atofHex. Infinity signals
 * overflow.
 */
function hexFloat(s: string, start: number, end: number, exponentStart: number, negative: boolean): number {
  const digits = s.slice(start, end).replaceAll('_', '');
  const dot = digits.indexOf('.');
  const fractionDigits = dot < 0 ? 0 : digits.length - dot - 1;
  const mantissa = BigInt('0x' + (dot < 0 ? digits : digits.slice(0, dot) + digits.slice(dot + 1)));
  // Exponents beyond any double are clamped; the result is then 0 or Infinity either way.
  const exponent = Number(s.slice(exponentStart).replaceAll('_', ''));
  const binaryExponent = Math.max(-100000, Math.min(100000, exponent)) - 4 * fractionDigits;
  const sign = negative ? -1 : 1;
  if (mantissa === 0n) return sign * 0;

  const bits = mantissa.toString(2).length;
  const topBit = binaryExponent + bits - 1;
  if (topBit > 1023) return sign * Infinity;
  // Normal doubles keep 53 significant bits; below 2^-1022 every halving costs one.
  const keep = topBit >= -1022 ? 53 : 53 - (-1022 - topBit);
  if (keep < 0) return sign * 0;
  const drop = Math.max(0, bits - keep);
  let kept = mantissa;
  if (drop > 0) {
    const shift = BigInt(drop);
    kept = mantissa >> shift;
    const remainder = mantissa - (kept << shift);
    const half = 1n << (shift - 1n);
    if (remainder > half || (remainder === half && (kept & 1n) === 1n)) kept += 1n;
  }
  // kept has at most 54 bits, so Number() is exact; the scale is never below 2^-1074, so the product only rounds
  // when a carry pushed it past the largest double (Infinity: overflow).
  return sign * Number(kept) * Math.pow(2, binaryExponent + drop);
}
