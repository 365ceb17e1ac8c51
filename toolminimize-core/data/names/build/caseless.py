#!/usr/bin/env python3
"""Builds caseless.tsv in ../ from the person providers of PyPI Faker 40.54.0 (MIT).

Usage:
  mkdir -p /tmp/names-src && cd /tmp/names-src
  pip download --no-deps faker==40.54.0 -d .
  mkdir -p faker && (cd faker && unzip -qo ../faker-40.54.0-py3-none-any.whl)
  python3 -m venv venv && venv/bin/pip install wordfreq==3.1.1
  venv/bin/python caseless.py /tmp/names-src

Names written in scripts without capital letters, which the capital-based detector cannot
meet: Arabic (Faker ar_AA, ar_SA, ar_PS, ar_DZ; Persian fa_IR), Hebrew (he_IL), Devanagari
(hi_IN, mr_IN, ne_NP), Korean (ko_KR), Chinese (zh_CN, zh_TW) and Thai (th_TH). Each line is
`script<TAB>role<TAB>name`, role `given` or `family`. Only names of one word are kept, and
given names of two (`تاج الدين`, matched as a pair of words), Arabic and Persian diacritics are stripped
and the forms of alef are unified (as the detector reads a text), and duplicates go. Family
names come only from the locales of FAMILY_FROM where the script has such a choice, and a
family name that is one of the 3,000 commonest words of Arabic, Hebrew or Hindi (wordfreq)
is left out.
"""
import importlib
import os
import sys
import unicodedata

SRC = sys.argv[1] if len(sys.argv) > 1 else "/tmp/names-src"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

LOCALES = {
    "arab": ["ar_AA", "ar_SA", "ar_PS", "ar_DZ", "fa_IR"],
    "hebr": ["he_IL"],
    "deva": ["hi_IN", "mr_IN", "ne_NP"],
    "hang": ["ko_KR"],
    "hani": ["zh_CN", "zh_TW"],
    "thai": ["th_TH"],
}


# Family names are taken only from the locales whose lists hold names: the others list
# adjectives, places and tribe words too (ar_AA "ألمع", ar_DZ "بركان" "volcano", ne_NP
# "नेपाल").
FAMILY_FROM = {"arab": ["ar_PS", "fa_IR"], "deva": ["hi_IN", "mr_IN"]}


def names(provider, attrs):
    out = []
    for a in attrs:
        v = getattr(provider, a, None)
        if v is None:
            continue
        out.extend(v.keys() if isinstance(v, dict) else v)
    return out


def arabic_fold(s):
    s = "".join(c for c in s if not ("\u064b" <= c <= "\u065f" or c == "\u0670"))
    return s.replace("أ", "ا").replace("إ", "ا").replace("آ", "ا")


# A family name that is also among the commonest words of its language (wordfreq's top
# list) reads as that word more often than as a name after a given name ("דני אמר" is
# "Danny said"): it is left out for the scripts written with spaces.
COMMON_LANG = {"arab": "ar", "hebr": "he", "deva": "hi"}
COMMON_TOP = 3000


def common_words(script):
    lang = COMMON_LANG.get(script)
    if lang is None:
        return set()
    from wordfreq import top_n_list

    return set(top_n_list(lang, COMMON_TOP))


def main():
    sys.path.insert(0, os.path.join(SRC, "faker"))
    rows = set()
    for script, locales in LOCALES.items():
        for loc in locales:
            p = importlib.import_module(f"faker.providers.person.{loc}").Provider
            given = names(p, ["first_names", "first_names_male", "first_names_female"])
            family = names(p, ["last_names", "last_names_male", "last_names_female"])
            if loc not in FAMILY_FROM.get(script, [loc]):
                family = []
            common = common_words(script)
            for role, lst in (("given", given), ("family", family)):
                for n in lst:
                    n = unicodedata.normalize("NFC", n.replace("\u200d", "").strip())
                    if script == "arab":
                        n = arabic_fold(n)
                    # A given name of two words ("تاج الدين", "نور الدين") is kept whole.
                    if not n or n.count(" ") > (1 if role == "given" else 0) or "-" in n:
                        continue
                    if role == "family" and n in common:
                        continue
                    rows.add((script, role, n))
    with open(os.path.join(OUT, "caseless.tsv"), "w", encoding="utf-8") as f:
        f.write("# script\trole\tname (built by build/caseless.py from Faker 40.54.0, MIT)\n")
        for r in sorted(rows):
            f.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
