"""Lists, for a hand-written lexicon table, the frequent words of the languages it may meet
that its entries would match without being the term: for a `pre` stem the words that start
with it, for a `post` stem the words that end with it, and a flagless single word that is
itself a frequent word. Read the list and narrow each entry that catches an everyday word
(list its forms, put it in a phrase, give it a context set, or shadow the word in
`benign.txt`).

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    /tmp/wf/bin/python build/check_stems.py lang_ru_uk.tsv ru,uk,bg
    /tmp/wf/bin/python build/check_stems.py lang_ro_ca.tsv ro,ca,es,it,fr,pt,en,de
    /tmp/wf/bin/python build/check_stems.py lang_hi.tsv hi,mr,ne,ur

Word lists: the 50,000 most frequent words of each language in wordfreq (PyPI `wordfreq`,
Apache-2.0 code, CC BY-SA 4.0 data), folded as the loader folds (lower case, marks
stripped; the vowel signs, viramas and nasal marks of the Indic scripts kept, the Devanagari
nukta dropped and the candrabindu written as the anusvara, as `src/text/fold.rs` does).
"""
import sys
import unicodedata

from wordfreq import top_n_list

SIMPLE = {'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'þ': 'th', 'ı': 'i', '’': "'"}


def indic_mark(d):
    """A combining mark of an Indic script (U+0900-U+0DFF): kept, as the loader keeps it."""
    return '\u0900' <= d <= '\u0DFF' and unicodedata.category(d) in ('Mn', 'Mc', 'Me')


def fold(s):
    out = []
    for c in s.lower():
        for d in unicodedata.normalize('NFD', c):
            if d == '\u093C':  # the Devanagari nukta goes
                continue
            if d == '\u0901':  # the candrabindu is written as the anusvara
                d = '\u0902'
            if not unicodedata.combining(d) or indic_mark(d):
                out.append(d)
    s = ''.join(out)
    for a, b in SIMPLE.items():
        s = s.replace(a, b)
    return s


def main(table, langs):
    words = {}
    for lang in langs.split(','):
        for w in top_n_list(lang, 50000):
            words.setdefault(fold(w), lang)
    for line in open(table, encoding='utf-8'):
        if line.startswith('#') or not line.strip():
            continue
        term, _kind, _conf, *rest = line.rstrip('\n').split('\t')
        flags = rest[0].split(',') if rest else []
        ft = fold(term)
        if ' ' in ft:
            continue
        hits = []
        if 'pre' in flags:
            hits += [w for w in words if w.startswith(ft) and w != ft]
        if 'post' in flags:
            hits += [w for w in words if w.endswith(ft) and w != ft]
        if not flags and ft in words:
            hits.append('=' + ft)
        if hits:
            print(f"{term:24} {','.join(flags):9} {len(hits):4} {' '.join(hits[:14])}")


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
