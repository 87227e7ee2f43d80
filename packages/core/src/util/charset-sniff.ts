/**
 * Which legacy encoding a text's bytes are in, when nothing reliable says so: each candidate decodes
 * a sample, and the decode that reads most like text wins. "Like text" is judged on the characters
 * outside ASCII, which is all a wrong guess changes: replacement characters and controls count
 * heavily against; CJK text is scored by how many of its characters are among the most frequent of
 * its language (a wrong multi-byte decode gives valid but rare characters); Cyrillic and Greek by
 * letter frequency and case (a wrong code page shuffles letters and flips case); Latin by whether
 * accented letters sit inside ASCII words (a Cyrillic page read as Windows-1252 gives words made
 * only of accented letters) and whether symbols land inside words (Polish read as Windows-1252).
 */

import { LETTER } from './letters.ts';

/**
 * Candidates with a small prior for how common each is: it decides short, ambiguous samples (two
 * kanji of a name, one accented letter) and is outweighed by any real evidence.
 */
export const LEGACY_CANDIDATES: ReadonlyArray<readonly [encoding: string, prior: number]> = [
  ['windows-1252', 0.3],
  ['shift_jis', 0.2],
  ['gb18030', 0.15],
  ['euc-kr', 0.1],
  ['big5', 0.1],
  ['windows-1251', 0.1],
  ['euc-jp', 0.05],
  ['windows-1250', 0.05],
  ['koi8-r', 0],
  ['windows-1253', 0],
];

/** The most frequent Chinese characters (simplified and traditional) and Japanese kanji. */
const COMMON_HAN = new Set(
  '的一是不了人我在有他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直资命山金指许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具爱击流备兵连调深商算质团集百需价花党华城石级整府离况请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参古' +
    '這個們來為國說時會對過發後裡經麼現當動還進種實與長機開無業將間問員關點體戰頭學樣見誰嗎從讓認話請謝愛書車電東門氣聽覺寫讀買賣錢鳥馬魚飛風雲語議區應產華條邊變數處該報場問題幾總務連類專網際價級導親聲歷義隊團護權結議設計營產辦論傳運達歲鐘點醫藥雜誌圖書館軍戰爭領導選舉灣臺' +
    '日本語京都東大阪円駅町村区市県様々込引取扱届付払受渡頂致申訳誠御貴社弊当方々階号室氏名前住所電話番号内容確認',
);

/** The most frequent Hangul syllables. */
const COMMON_HANGUL = new Set(
  '이다의는에고하가을지를기한서사리어대도로자아시수게나해부인정있것들보습니요우주전상일그만적면라무원치성여내동제장오실금과말및회국학공위후등했되거날씨좋은으니까세계중문화간업경생년데신개관행방법결물발각연명비강통선현영분미교단체별산구조심작점감노더또많함없같받알록때각민당시간음식사람우리너무정말오늘내일어제지금여기거기저기모든처음마지막다시함께먼저아직이미항상가장매우조금많이좀잘못안왜어떻게무엇누구어디언제합니다입니다있습니다없습니다했습니다됩니다',
);

/** The twelve most frequent letters of Russian and of Greek text (lower case). */
const COMMON_LETTERS = new Set('оеаинтсрвлкмαοιεντσρκπμλυη');

const ASCII_LETTER = /[A-Za-z]/;
const isLetter = (ch: string): boolean => LETTER.test(ch);
const isAsciiLetter = (ch: string | undefined): boolean => ch !== undefined && ASCII_LETTER.test(ch);

/**
 * How much one character outside ASCII says for the decode it came from (see the module note);
 * undefined for the usual punctuation, which says nothing.
 */
function charScore(text: string, i: number): number | undefined {
  const ch = text[i] as string;
  const cp = ch.charCodeAt(0);
  // Replacement characters, C0/C1 controls, private use: what a wrong decode produces.
  if (cp === 0xfffd || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return -10;
  if (cp >= 0xe000 && cp <= 0xf8ff) return -3;
  if (cp >= 0x3040 && cp <= 0x30ff) return 1; // kana
  if (cp >= 0xff61 && cp <= 0xff9f) return -1; // half-width kana: rare in real text
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf)) return COMMON_HAN.has(ch) ? 1 : -0.25;
  if (cp >= 0xac00 && cp <= 0xd7a3) return COMMON_HANGUL.has(ch) ? 1 : -0.25;
  if (cp >= 0x3130 && cp <= 0x318f) return -2; // bare Hangul jamo
  const prev = text[i - 1];
  const next = text[i + 1];
  if (((cp >= 0x0400 && cp <= 0x04ff) || (cp >= 0x0370 && cp <= 0x03ff)) && isLetter(ch)) {
    // Inside a Latin word, a Cyrillic or Greek letter is a Latin letter read with the wrong table.
    if (isAsciiLetter(prev) || isAsciiLetter(next)) return -1.5;
    const lower = ch.toLowerCase();
    return (COMMON_LETTERS.has(lower) ? 1 : 0) + (lower === ch ? 0.2 : -0.5);
  }
  if (isLetter(ch)) {
    if (cp < 0x0250) return isAsciiLetter(prev) || isAsciiLetter(next) ? 1 : -0.5; // Latin
    return 0;
  }
  // Punctuation and symbols: the usual ones are fine between words; inside a word, or a rare one
  // (¤ ¦ ¨ ´ ¸ ‹ ΄), they are a sign of a wrong code page.
  if (prev !== undefined && next !== undefined && isLetter(prev) && isLetter(next)) return -2;
  return USUAL_SYMBOLS.includes(ch) || (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff01 && cp <= 0xff60)
    ? undefined
    : -1;
}

/** Punctuation and symbols real text uses (CJK punctuation and full-width forms are added above). */
const USUAL_SYMBOLS = '\u00a0–—‘’‚“”„…€£¥«»•·°©®™§±×÷¿¡¢½¼¾²³µ';

/** Mean score of the telling characters outside ASCII; undefined for a text without any. */
export function textScore(text: string): number | undefined {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) continue;
    const score = charScore(text, i);
    if (score === undefined) continue;
    n++;
    sum += score;
  }
  return n ? sum / n : undefined;
}

/** ISO-2022-JP is 7-bit: escape sequences switch to JIS X 0208 and back. */
export const isIso2022Jp = (b: Uint8Array): boolean => {
  let escapes = 0;
  for (let i = 0; i + 2 < b.length; i++) {
    const c = b[i] as number;
    if (c >= 0x80) return false;
    if (c === 0x1b && b[i + 1] === 0x24 && (b[i + 2] === 0x42 || b[i + 2] === 0x40)) escapes++;
  }
  return escapes > 0;
};
