#!/usr/bin/env python3
"""Builds procedures.tsv: names of medical procedures and examinations people write in
everyday text (endoscopy, Magenspiegelung, coloscopie, biopsia hepática, hemodiálise).

Input: faker-healthcare-provider 2.5.0 (PyPI, MIT), unpacked by fetch.sh into WORKDIR, its
MEDICAL_PROCEDURES lists in English (faker_healthcare/constants.py) and in de_DE, fr_FR, es_ES,
pt_BR (faker_healthcare/<locale>/constants.py). "Name (Abbreviation)" gives both; terms already
in another lexicon table (folded) are skipped, so this table only adds.

Kept only when unambiguous in everyday text:
- a single word with a Zipf frequency >= 3.5 in any of en/de/fr/es/it/pt (wordfreq 3.x, used only
  to filter) is dropped: "Ablation", "Excision", "Suture", "Vaccination", "Röntgen" name other
  things too;
- cosmetic procedures and vaccinations (DROP below) are not health data of the user's body in
  the sense of the lexicon: a chemical peel or a filler injection is a beauty appointment;
- bare abbreviations of two or three letters (CT, ICD, PDA, TAC, DAI, RMN) collide with other
  acronyms and are dropped; longer ones keep their case (flag `case`);
- generic phrases made of everyday words only (DROP) are dropped.

Usage: python3 build/procedures.py WORKDIR OUTDIR   (OUTDIR: data/lexicon)
"""

import ast
import re
import sys
import unicodedata
from pathlib import Path

from wordfreq import zipf_frequency

LOCALES = ["", "de_DE", "fr_FR", "es_ES", "pt_BR"]
ZIPF_LANGS = ["en", "de", "fr", "es", "it", "pt"]

# Folded names left out: cosmetic or preventive (not the user's condition), or everyday words.
DROP = {
    # cosmetic
    "botox injection", "filler injection", "laser hair removal", "chemical peel",
    "microdermabrasion", "dermabrasion", "skin tag removal", "mole removal", "wart removal",
    "botox-injektion", "hyaluronsaure-unterspritzung", "laserhaarentfernung",
    "chemisches peeling", "mikrodermabrasion", "hautanhangsel-entfernung",
    "muttermal-entfernung", "warzenentfernung", "injection de botox", "injection de filler",
    "epilation laser", "peeling chimique", "exerese de lesion cutanee",
    "exerese de grain de beaute", "exerese de verrue", "inyeccion de toxina botulinica",
    "inyeccion de relleno", "depilacion laser", "peeling quimico", "microdermoabrasion",
    "dermoabrasion", "eliminacion de acrocordones", "extirpacion de nevus", "lunares",
    "eliminacion de verrugas", "injecao de botox", "injecao de preenchimento",
    "remocao a laser de pelos", "microdermoabrasao", "dermoabrasao",
    "remocao de papula cutanea", "remocao de nevo", "remocao de verruga",
    # preventive
    "vaccination", "impfung", "vacunacion", "vacinacao",
    # everyday words or tools' words
    "excision", "incision and drainage", "suturing", "stapling", "suture", "agrafage",
    "klammerung", "grapado", "grampeamento", "sutura", "wundnaht", "excisicao", "escision",
    "exzision", "incision et drainage", "incision y drenaje", "incisao e drenagem",
    "targeted therapy", "zielgerichtete therapie", "therapie ciblee", "terapia dirigida",
    "terapia alvo", "ablation", "ablacion", "ablacao", "sectio", "radiographie",
    "flap surgery", "lappenplastik", "lambeau cutane", "cirugia de colgajo",
    "cirurgia de retalho", "nerve block", "bloc nerveux",
    # also a technology or a name: AWS X-Ray, ultrasonic cleaning, the physicist and the unit
    "x-ray", "rayos x", "ultraschall", "rontgen",
    # also a wellness or beauty treatment
    "cryotherapy", "kryotherapie", "cryotherapie", "crioterapia",
}


def fold(s: str) -> str:
    s = unicodedata.normalize("NFD", s.lower())
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("’", "'").replace("ß", "ss")
    return re.sub(r"\s+", " ", s).strip()


def procedures(path: Path):
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if getattr(target, "id", "") == "MEDICAL_PROCEDURES":
            return list(ast.literal_eval(node.value))
    raise SystemExit(f"{path}: no MEDICAL_PROCEDURES")


def existing_terms(outdir: Path):
    seen = set()
    for f in outdir.glob("*.tsv"):
        if f.name == "procedures.tsv":
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                seen.add(fold(line.split("\t")[0]))
    return seen


def main():
    work, outdir = Path(sys.argv[1]), Path(sys.argv[2])
    base = work / "faker_healthcare_provider" / "faker_healthcare"
    have = existing_terms(outdir)
    rows, seen = [], set()
    for loc in LOCALES:
        for name in procedures(base / loc / "constants.py"):
            m = re.fullmatch(r"(.*?)\s*\((.*)\)", name)
            parts = [m.group(1), m.group(2)] if m else [name]
            for term in parts:
                term = term.strip()
                key = fold(term)
                if not term or key in DROP or key in have or key in seen:
                    continue
                words = key.split()
                acronym = term.isupper() or re.fullmatch(r"[A-Z]+[a-z]?(-[A-Za-z]+)*", term)
                if acronym and len(re.sub(r"[^A-Za-z]", "", term)) <= 3:
                    continue
                if len(words) == 1 and not acronym and max(
                    zipf_frequency(key, lang) for lang in ZIPF_LANGS
                ) >= 3.5:
                    continue
                # Lower-case common nouns as they are written in running text (German nouns
                # keep their capital; the lexicon folds case anyway).
                if not acronym and loc != "de_DE":
                    term = " ".join(w if w[:2].isupper() else w.lower() for w in term.split())
                seen.add(key)
                rows.append((term, "condition", 0.9, "case" if acronym else ""))
    with (outdir / "procedures.tsv").open("w", encoding="utf-8") as out:
        out.write(
            "# GENERATED by build/procedures.py from faker-healthcare-provider 2.5.0 (MIT),\n"
            "# MEDICAL_PROCEDURES of en, de_DE, fr_FR, es_ES, pt_BR; do not edit by hand.\n"
        )
        for term, kind, conf, flags in rows:
            line = f"{term}\t{kind}\t{conf:.2f}"
            if flags:
                line += f"\t{flags}"
            out.write(line + "\n")
    print("procedures.tsv", len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
