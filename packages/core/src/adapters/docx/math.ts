import { attr, isElement, type XmlElement } from '../../util/xml.ts';
import { kid, kids, ln, val } from './xml.ts';

/**
 * OMML (`m:oMath`) to LaTeX for the common constructs: fractions, scripts, radicals, n-ary
 * operators, delimiters, functions, accents, matrices. Anything else falls back to its text.
 */

const SYMBOLS: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ρ: '\\rho',
  σ: '\\sigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  '∞': '\\infty',
  '×': '\\times',
  '÷': '\\div',
  '±': '\\pm',
  '∓': '\\mp',
  '·': '\\cdot',
  '⋅': '\\cdot',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∝': '\\propto',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '⇒': '\\Rightarrow',
  '⇔': '\\Leftrightarrow',
  '∂': '\\partial',
  '∇': '\\nabla',
  '∈': '\\in',
  '∉': '\\notin',
  '⊂': '\\subset',
  '⊆': '\\subseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∀': '\\forall',
  '∃': '\\exists',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '−': '-',
  '–': '-',
  '∅': '\\emptyset',
  '°': '^{\\circ}',
  '∘': '\\circ',
};

const NARY: Record<string, string> = {
  '∑': '\\sum',
  '∏': '\\prod',
  '∐': '\\coprod',
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
};

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat',
  '\u0303': '\\tilde',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u0304': '\\bar',
  '\u0305': '\\bar',
  '\u20d7': '\\vec',
  '\u0301': '\\acute',
  '\u0300': '\\grave',
  '\u0306': '\\breve',
  '\u030c': '\\check',
};

const FUNCTIONS = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'log',
  'ln',
  'exp',
  'lim',
  'max',
  'min',
  'sinh',
  'cosh',
  'tanh',
  'arcsin',
  'arccos',
  'arctan',
  'det',
  'sup',
  'inf',
]);

const DELIMS: Record<string, string> = {
  '{': '\\{',
  '}': '\\}',
  '|': '|',
  '‖': '\\|',
  '⟨': '\\langle',
  '⟩': '\\rangle',
};

function escapeText(s: string): string {
  let out = '';
  for (const ch of s) {
    const sym = SYMBOLS[ch];
    if (sym) out += sym.startsWith('\\') && /[a-zA-Z]$/.test(sym) ? `${sym} ` : sym;
    else if (ch === '{' || ch === '}' || ch === '%' || ch === '#' || ch === '&' || ch === '$' || ch === '_')
      out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

/** A LaTeX argument: the content of an OMML element's children. */
const arg = (el: XmlElement | undefined): string => (el ? children(el).trim() : '');

function children(el: XmlElement): string {
  let s = '';
  for (const c of el.children) if (isElement(c)) s += node(c);
  return s;
}

const wrap = (s: string) => (s.length === 1 || /^\\[a-zA-Z]+\s?$/.test(s) ? s : `{${s}}`);

function delim(ch: string | undefined, fallback: string, left: boolean): string {
  const c = ch ?? fallback;
  if (c === '') return left ? '\\left.' : '\\right.';
  return `${left ? '\\left' : '\\right'}${DELIMS[c] ?? c}`;
}

function node(el: XmlElement): string {
  switch (ln(el)) {
    case 'r': {
      // Invisible function application/times/separator characters only guide layout.
      const t = kids(el, 't')
        .map((x) => x.children.filter((c): c is string => typeof c === 'string').join(''))
        .join('')
        .replace(/[\u2061-\u2064]/g, '');
      const plain = kid(kid(el, 'rPr'), 'nor') !== undefined;
      // The trailing space keeps `\sin` from fusing with a following letter.
      if (FUNCTIONS.has(t.trim())) return `\\${t.trim()} `;
      return plain ? `\\text{${t}}` : escapeText(t);
    }
    case 'f': {
      const type = val(kid(kid(el, 'fPr'), 'type'));
      const num = arg(kid(el, 'num'));
      const den = arg(kid(el, 'den'));
      if (type === 'lin') return `${wrap(num)}/${wrap(den)}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'sSup':
      return `${wrap(arg(kid(el, 'e')))}^{${arg(kid(el, 'sup'))}}`;
    case 'sSub':
      return `${wrap(arg(kid(el, 'e')))}_{${arg(kid(el, 'sub'))}}`;
    case 'sSubSup':
      return `${wrap(arg(kid(el, 'e')))}_{${arg(kid(el, 'sub'))}}^{${arg(kid(el, 'sup'))}}`;
    case 'sPre':
      return `{}_{${arg(kid(el, 'sub'))}}^{${arg(kid(el, 'sup'))}}${wrap(arg(kid(el, 'e')))}`;
    case 'rad': {
      const deg = arg(kid(el, 'deg'));
      const hide = kid(kid(el, 'radPr'), 'degHide');
      return deg && !hide ? `\\sqrt[${deg}]{${arg(kid(el, 'e'))}}` : `\\sqrt{${arg(kid(el, 'e'))}}`;
    }
    case 'nary': {
      const pr = kid(el, 'naryPr');
      const ch = attr(kid(pr, 'chr'), 'm:val') ?? '∫';
      let s = NARY[ch] ?? escapeText(ch);
      const sub = arg(kid(el, 'sub'));
      const sup = arg(kid(el, 'sup'));
      if (sub) s += `_{${sub}}`;
      if (sup) s += `^{${sup}}`;
      return `${s} ${arg(kid(el, 'e'))}`;
    }
    case 'd': {
      const pr = kid(el, 'dPr');
      const beg = attr(kid(pr, 'begChr'), 'm:val');
      const end = attr(kid(pr, 'endChr'), 'm:val');
      const sep = attr(kid(pr, 'sepChr'), 'm:val') ?? '|';
      const parts = kids(el, 'e').map(arg);
      return `${delim(beg, '(', true)}${parts.join(escapeText(sep))}${delim(end, ')', false)}`;
    }
    case 'func':
      return `${arg(kid(el, 'fName'))}${wrap(arg(kid(el, 'e')))}`;
    case 'limLow':
      return `${wrap(arg(kid(el, 'e')))}_{${arg(kid(el, 'lim'))}}`;
    case 'limUpp':
      return `${wrap(arg(kid(el, 'e')))}^{${arg(kid(el, 'lim'))}}`;
    case 'acc': {
      const ch = attr(kid(kid(el, 'accPr'), 'chr'), 'm:val') ?? '\u0302';
      return `${ACCENTS[ch] ?? '\\hat'}{${arg(kid(el, 'e'))}}`;
    }
    case 'bar': {
      const pos = attr(kid(kid(el, 'barPr'), 'pos'), 'm:val');
      return `${pos === 'bot' ? '\\underline' : '\\overline'}{${arg(kid(el, 'e'))}}`;
    }
    case 'groupChr': {
      const pos = attr(kid(kid(el, 'groupChrPr'), 'pos'), 'm:val');
      return `${pos === 'top' ? '\\overbrace' : '\\underbrace'}{${arg(kid(el, 'e'))}}`;
    }
    case 'm': {
      const rows = kids(el, 'mr').map((r) => kids(r, 'e').map(arg).join(' & '));
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'eqArr':
      if (kids(el, 'e').length === 1) return arg(kid(el, 'e'));
      return `\\begin{array}{l}${kids(el, 'e').map(arg).join(' \\\\ ')}\\end{array}`;
    case 'box':
    case 'borderBox':
    case 'phant':
    case 'e':
    case 'oMath':
    case 'num':
    case 'den':
    case 'sub':
    case 'sup':
    case 'lim':
    case 'fName':
    case 'deg':
      return children(el);
    case 'ctrlPr':
    case 'rPr':
    case 'fPr':
    case 'sSupPr':
    case 'sSubPr':
    case 'sSubSupPr':
    case 'radPr':
    case 'naryPr':
    case 'dPr':
    case 'funcPr':
    case 'limLowPr':
    case 'limUppPr':
    case 'accPr':
    case 'barPr':
    case 'mPr':
    case 'eqArrPr':
    case 'boxPr':
    case 'borderBoxPr':
    case 'groupChrPr':
    case 'sPrePr':
    case 'phantPr':
    case 'argPr':
    case 'oMathParaPr':
      return '';
    default:
      // Word runs (w:r) can sit inside math for inserted text; keep their characters.
      return el.children
        .map((c) =>
          typeof c === 'string'
            ? ''
            : ln(c) === 't'
              ? escapeText(c.children.filter((t): t is string => typeof t === 'string').join(''))
              : node(c),
        )
        .join('');
  }
}

/** LaTeX for one `m:oMath`, whitespace tidied. */
export function ommlToLatex(oMath: XmlElement): string {
  return children(oMath).replace(/\s+/g, ' ').trim();
}
