/**
 * The 21 names that hide something, with how the console must show them (src/lib/visible-text.ts), and names
 * that must read exactly as they are. One list for both the unit tests of the rule and the journeys that look
 * for raw invisible characters wherever a name appears (zone `src/test-data` in .ci/boundaries.ts: tests and
 * journeys may import it, console code may not).
 */
const tags = (letters: string): string => [...letters].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

export interface HiddenName {
  /** What the hidden characters are, for a failure message. */
  what: string;
  name: string;
  shown: string;
}

export const HIDDEN_NAMES: readonly HiddenName[] = [
  { what: 'tag characters spelling text', name: `report${tags('secret')}.pdf`, shown: 'report⟨U+E0073⟩⟨U+E0065⟩⟨U+E0063⟩⟨U+E0072⟩⟨U+E0065⟩⟨U+E0074⟩.pdf' },
  { what: 'invisible times', name: 'a\u2062b.txt', shown: 'a⟨U+2062⟩b.txt' },
  { what: 'invisible plus', name: 'a\u2064b.txt', shown: 'a⟨U+2064⟩b.txt' },
  { what: 'soft hyphen', name: 'pass\u00adwords.txt', shown: 'pass⟨U+00AD⟩words.txt' },
  { what: 'Mongolian vowel separator', name: 'mvs\u180e.txt', shown: 'mvs⟨U+180E⟩.txt' },
  { what: 'combining grapheme joiner', name: 'cgj\u034f.txt', shown: 'cgj⟨U+034F⟩.txt' },
  { what: 'VS16 after a letter', name: 'vs\ufe0f16.txt', shown: 'vs⟨U+FE0F⟩16.txt' },
  { what: 'Hangul filler', name: '\u3164.txt', shown: '⟨U+3164⟩.txt' },
  { what: 'Hangul choseong filler', name: 'x\u115f.txt', shown: 'x⟨U+115F⟩.txt' },
  { what: 'musical begin beam', name: 'beam\u{1d173}.txt', shown: 'beam⟨U+1D173⟩.txt' },
  { what: 'line separator', name: 'line\u2028sep.txt', shown: 'line⟨U+2028⟩sep.txt' },
  { what: 'ZWJ between ASCII letters', name: 'pay\u200dpal.txt', shown: 'pay⟨U+200D⟩pal.txt' },
  { what: 'right-to-left override', name: 'invoice\u202efdp.exe', shown: 'invoice⟨U+202E⟩fdp.exe' },
  { what: 'zero-width space', name: 'zero\u200bwidth.txt', shown: 'zero⟨U+200B⟩width.txt' },
  { what: 'word joiner', name: 'word\u2060joiner.txt', shown: 'word⟨U+2060⟩joiner.txt' },
  { what: 'byte order mark', name: '\ufeffbom.txt', shown: '⟨U+FEFF⟩bom.txt' },
  { what: 'left-to-right mark', name: 'lrm\u200e.txt', shown: 'lrm⟨U+200E⟩.txt' },
  { what: 'right-to-left mark', name: 'rlm\u200f.txt', shown: 'rlm⟨U+200F⟩.txt' },
  { what: 'Arabic letter mark', name: 'alm\u061c.txt', shown: 'alm⟨U+061C⟩.txt' },
  { what: 'left-to-right isolate', name: 'iso\u2066late\u2069.txt', shown: 'iso⟨U+2066⟩late⟨U+2069⟩.txt' },
  { what: 'BEL control', name: 'bell\u0007.txt', shown: 'bell␇.txt' },
];

export const READABLE_NAMES: readonly string[] = [
  '👨\u200d👩\u200d👧 family.txt',
  '👩🏽\u200d💻 at work.txt',
  '❤\ufe0f\u200d🔥.txt',
  '❤\ufe0f.txt',
  '1\ufe0f\u20e3 first.txt',
  `🏴${tags('gbsct')}\u{e007f} scotland.txt`,
  '👍🏽.txt',
  '中文文件名.txt',
  '葛\u{e0100}城市.txt',
  'می\u200cخواهم.txt',
  'क्\u200dष.txt',
  'قائمة.csv',
  'ملف\u0600.txt',
  'plain name (1).txt',
];
