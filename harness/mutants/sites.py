# SPDX-License-Identifier: MIT
"""sites.py -- where a C file can be mutated, and how: the classic mutation
operators, found in the file's code (never in its comments, strings or
preprocessor lines), for the random mutants of harness/mutants/sample.py.

    for site in sites(text, "posix/record.c"):
        mutated = site.apply(text)

The operators (site.op):
  ROR   a relational operator swapped: <  <=  >  >=  ==  !=
  AOR   an arithmetic or bitwise operator swapped: + - * / % << >> & | ^,
        their compound assignments, ++ and --
  LCR   && and || swapped
  UOI   a logical negation removed (!x -> x)
  CRP   an integer constant changed by one (N -> N+1, N -> N-1)
  COND  the condition of an if or while negated, or an if's made constant
  SDL   a statement deleted (an expression statement, a call: x = y; f(z);)
  RVR   a return value replaced (return e; -> return 0; return 0; -> return 1;)

Each site has a key that does not depend on line numbers: the file, a hash of
the line's text and of how many lines with the same text come before it, the
operator, the token's place in the line and the replacement.  Edits elsewhere
in the file leave the keys of a line's mutants alone, so that the judgements
of harness/mutants/triage.tsv stay attached to their mutants.
"""

import hashlib
import re

# Punctuators, longest first (C11 6.4.6), as far as the operators need them.
_PUNCT = sorted(["...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                 "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##",
                 "[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/",
                 "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#"],
                key=len, reverse=True)
_TOKEN = re.compile(r"(?P<num>\b(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*\b)|(?P<id>[A-Za-z_]\w*)|"
                    r"(?P<punct>" + "|".join(re.escape(p) for p in _PUNCT) + r")|(?P<ws>\s+)"
                    r"|(?P<other>.)", re.S)

ROR = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
       "==": ["!="], "!=": ["=="]}
AOR = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"], "<<": [">>"], ">>": ["<<"],
       "&": ["|"], "|": ["&"], "^": ["|"], "+=": ["-="], "-=": ["+="], "|=": ["&="],
       "&=": ["|="], "<<=": [">>="], ">>=": ["<<="], "++": ["--"], "--": ["++"]}
LCR = {"&&": ["||"], "||": ["&&"]}
# What ends an operand: after one of these a + - * & is binary.
_OPERAND_END = {"num", "id", ")", "]"}
_KEYWORDS = {"return", "sizeof", "case", "if", "while", "for", "switch", "do", "else",
             "goto", "break", "continue", "default", "static", "const", "volatile", "struct",
             "union", "enum", "typedef", "extern", "unsigned", "signed", "int", "long",
             "short", "char", "void", "float", "double", "_Bool", "inline", "register",
             "restrict", "_Atomic", "_Alignas", "_Static_assert", "_Noreturn", "bool"}
# A statement that starts with one of these is not an expression statement.
_NOT_SDL = _KEYWORDS | {"size_t", "ssize_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
                        "int8_t", "int16_t", "int32_t", "int64_t", "off_t", "pid_t",
                        "trace_id_t", "trace_event_id_t", "uintptr_t", "intptr_t"}


class Site:
    """One mutant: text[start:end] replaced by new."""

    __slots__ = ("file", "line", "start", "end", "old", "new", "op", "key", "line_text")

    def __init__(self, file, line, start, end, old, new, op, key, line_text):
        self.file, self.line, self.start, self.end = file, line, start, end
        self.old, self.new, self.op, self.key, self.line_text = old, new, op, key, line_text

    def apply(self, text):
        if text[self.start:self.end] != self.old:
            raise ValueError("%s: the text at the site has changed" % self.key)
        return text[:self.start] + self.new + text[self.end:]

    def mutated_line(self, text):
        """The site's line as the mutant has it (the first line of a deleted
        statement)."""
        out = self.apply(text)
        ls = text.rfind("\n", 0, self.start) + 1
        return out[ls:out.find("\n", ls) if out.find("\n", ls) >= 0 else len(out)].strip()

    def describe(self):
        return "%s:%d %s %r -> %r" % (self.file, self.line, self.op, self.old, self.new)


def mask(text):
    """The text with comments, string and character literals and preprocessor
    lines (with their continuations) blanked out, newlines kept: offsets in the
    mask are offsets in the text."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, up to a newline not escaped by a backslash.
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out[i] = " "
                i += 1
            continue
        at_line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j + 1
            continue
        i += 1
    return "".join(out)


def _tokens(masked):
    """(kind, text, start, end) of the code's tokens, white space dropped."""
    toks = []
    for m in _TOKEN.finditer(masked):
        kind = m.lastgroup
        if kind == "ws":
            continue
        if kind == "punct":
            kind = m.group()
        toks.append((kind, m.group(), m.start(), m.end()))
    return toks


def _matching(toks, i):
    """The index of the token that closes the bracket at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] in ("(", "[", "{"):
            depth += 1
        elif toks[j][0] in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    return None


def _const_plus(lit, delta):
    m = re.match(r"(0[xX][0-9A-Fa-f]+|\d+)([uUlL]*)$", lit)
    digits, suffix = m.group(1), m.group(2)
    value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8 if (
        len(digits) > 1 and digits[0] == "0") else 10)
    v = value + delta
    if v < 0:
        return None
    return (hex(v) if digits[:2].lower() == "0x" else str(v)) + suffix


def sites(text, file):
    """Every mutation site of a C file's text, in the order of the text."""
    masked = mask(text)
    toks = _tokens(masked)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    lines = text.split("\n")
    seen = {}
    occurrence = []                     # per line number: how many same lines before it
    for ln in lines:
        s = ln.strip()
        occurrence.append(seen.get(s, 0))
        seen[s] = seen.get(s, 0) + 1

    import bisect

    def line_of(off):
        return bisect.bisect_right(line_starts, off)       # 1-based

    found = []
    per_line = {}

    def add(start, end, new, op):
        ln = line_of(start)
        ltext = lines[ln - 1].strip()
        # The n-th mutable place of this kind on the line keeps the key apart
        # from a same operator elsewhere on it.
        nth = per_line.setdefault((ln, op, text[start:end], new), 0)
        per_line[(ln, op, text[start:end], new)] = nth + 1
        h = hashlib.sha1(("%s\0%d\0%s\0%s\0%s\0%d" % (ltext, occurrence[ln - 1], op,
                                                     text[start:end], new, nth))
                         .encode()).hexdigest()[:12]
        found.append(Site(file, ln, start, end, text[start:end], new, op,
                          "%s:%s" % (file, h), ltext))

    for i, (kind, tok, s, e) in enumerate(toks):
        prev = toks[i - 1][0] if i else ";"
        # A keyword ends no operand (char *p, return -1, sizeof *p).
        prev_kind = "kw" if prev == "id" and toks[i - 1][1] in _KEYWORDS else prev
        binary = prev_kind in _OPERAND_END
        if kind in ROR and (kind not in ("<", ">") or binary):
            for r in ROR[kind]:
                add(s, e, r, "ROR")
        elif kind in LCR:
            for r in LCR[kind]:
                add(s, e, r, "LCR")
        elif kind in AOR:
            if kind in ("+", "-", "*", "&") and not binary:
                continue
            if kind in ("++", "--") and not (binary or toks[i + 1][0] == "id"):
                continue
            for r in AOR[kind]:
                add(s, e, r, "AOR")
        elif kind == "!" and i + 1 < len(toks) and toks[i + 1][0] != "=":
            add(s, e, "", "UOI")
        elif kind == "num":
            # Not a bit-field width, an array's size in a declaration or a
            # case label's value (they change the program's shape, not a value).
            if prev in ("case", "[") or (prev == ":" and i > 1 and toks[i - 2][0] == "id"
                                          and _ends_declarator(toks, i)):
                continue
            for d in (1, -1):
                v = _const_plus(tok, d)
                if v is not None:
                    add(s, e, v, "CRP")
        elif kind == "id" and tok in ("if", "while") and i + 1 < len(toks) \
                and toks[i + 1][0] == "(":
            j = _matching(toks, i + 1)
            if j is None:
                continue
            cs, ce = toks[i + 1][3], toks[j][2]
            cond = text[cs:ce]
            if "\n" in cond and len(cond) > 300:
                continue
            add(cs, ce, "!(%s)" % cond, "COND")
            if tok == "if":
                add(cs, ce, "1", "COND")
                add(cs, ce, "0", "COND")
        elif kind == "id" and tok == "return" and i + 1 < len(toks) and toks[i + 1][0] != ";":
            # return EXPR;  ->  return 0;  (return 0; -> return 1;)
            j = i + 1
            depth = 0
            while j < len(toks) and not (toks[j][0] == ";" and depth == 0):
                depth += toks[j][0] in "([{" and 1 or (toks[j][0] in ")]}" and -1 or 0)
                j += 1
            if j >= len(toks):
                continue
            es, ee = toks[i + 1][2], toks[j - 1][3]
            expr = text[es:ee]
            add(es, ee, "1" if expr.strip() == "0" else "0", "RVR")
        if kind in (";", "{", "}") or i == 0:
            st = _statement(toks, i + 1 if kind in (";", "{", "}") else i)
            if st is not None:
                a, b = st
                add(toks[a][2], toks[b][3], ";", "SDL")
    return found


def _ends_declarator(toks, i):
    """Whether toks[i], after NAME :, ends a declarator (NAME : N ; or ,): a
    bit-field's width, not the value after a ternary's colon."""
    return i + 1 < len(toks) and toks[i + 1][0] in (";", ",")


def _statement(toks, a):
    """(first, last) token indexes of an expression statement starting at
    toks[a] (a call or an assignment ending with ';' at depth 0, no braces),
    or None."""
    if a >= len(toks):
        return None
    k0, t0 = toks[a][0], toks[a][1]
    if not (k0 in ("id", "(", "*", "++", "--")) or t0 in _NOT_SDL:
        return None
    if k0 == "id" and a + 1 < len(toks) and toks[a + 1][0] == ":":
        return None                     # a label
    # A declaration: two identifiers in a row (a type then a name), or a name then '*' name '='.
    if k0 == "id" and a + 1 < len(toks) and toks[a + 1][0] == "id":
        return None
    depth = 0
    for j in range(a, min(len(toks), a + 120)):
        k = toks[j][0]
        if k in ("{", "}"):
            return None
        if k in ("(", "["):
            depth += 1
        elif k in (")", "]"):
            depth -= 1
            if depth < 0:
                return None
        elif k == ";" and depth == 0:
            # A statement of only a name or a number is no mutant worth making.
            return (a, j) if j - a >= 2 else None
    return None
