#!/usr/bin/env python3
"""Labels of personal identity and tax numbers, from python-stdnum's module docstrings.

Each stdnum module opens with a line that names its number: its acronyms, then in brackets
its name in the country's language and an English description, e.g.
    EGN (ЕГН, Единен граждански номер, Bulgarian personal identity codes).
This script reads that line for the modules of numbers that belong to a person (listed below
with the class the project gives them) and writes one label a line:

    label <TAB> class <TAB> module

The acronyms and native names are kept; English descriptions are not (they name the
country, not the label). Two-letter ASCII acronyms ("CC", "CI", "NI") and acronyms that are
other things' names ("PIN", a secret; "EPIC", "VID") are left out. An ASCII acronym of three
to five letters is marked `caps`: it is a label only where it is written in capitals
("SIN" is Spanish for "without").

Usage: python3 stdnum_labels.py > ../labels.tsv   (python-stdnum installed; tested with 2.2)
"""
import importlib
import re
import sys

import stdnum

# Module -> class. Numbers of people only (no company, VAT or bank numbers).
MODULES = {
    'ar.dni': 'national', 'at.vnr': 'national', 'be.ssn': 'national', 'be.nn': 'national',
    'bg.egn': 'national', 'br.cpf': 'national', 'ca.sin': 'national', 'ca.bc_phn': 'medical',
    'ch.ssn': 'national', 'cn.ric': 'national', 'cr.cpf': 'national', 'cu.ni': 'national',
    'cz.rc': 'national', 'de.idnr': 'tax', 'dk.cpr': 'national', 'do.cedula': 'national',
    'ec.ci': 'national', 'ee.ik': 'national', 'es.dni': 'national', 'es.nie': 'national',
    'fi.hetu': 'national', 'fi.veronumero': 'tax', 'fr.nir': 'national', 'gr.amka': 'national',
    'hr.oib': 'national', 'id.nik': 'national', 'ie.pps': 'national', 'il.idnr': 'national',
    'in_.aadhaar': 'national', 'is_.kennitala': 'national', 'it.codicefiscale': 'tax',
    'jp.in_': 'national', 'kr.rrn': 'national', 'lt.asmens': 'national', 'mx.curp': 'national',
    'my.nric': 'national', 'nl.bsn': 'national', 'no.fodselsnummer': 'national',
    'pe.cui': 'national', 'pk.cnic': 'national', 'pl.pesel': 'national', 'pt.cc': 'national',
    'ro.cnp': 'national', 'se.personnummer': 'national', 'si.emso': 'national',
    'sk.rc': 'national', 'th.pin': 'national', 'tr.tckimlik': 'national',
    'ua.rntrc': 'tax', 'us.ssn': 'national', 'us.itin': 'tax', 'us.atin': 'tax',
}
# Names in common use that the docstrings do not give, with where they are documented
# (Wikipedia, "National identification number", and the issuing authority's own name).
EXTRA = [
    ('AHV-Nummer', 'national', 'ch.ssn; ahv-iv.ch'),
    ('AHV-Nr', 'national', 'ch.ssn; ahv-iv.ch'),
    ('numéro AVS', 'national', 'ch.ssn; avs-ai.ch'),
    ('AVS', 'national,caps', 'ch.ssn; avs-ai.ch'),
    ('AHV', 'national,caps', 'ch.ssn; ahv-iv.ch'),
    ('EMŠO', 'national', 'si.emso; Wikipedia'),
    ('JMBG', 'national,caps', 'si.emso; Wikipedia'),
    ('EMBG', 'national,caps', 'si.emso (North Macedonia); Wikipedia'),
    ('ЕМБГ', 'national', 'si.emso (North Macedonia); Wikipedia'),
    ('ЈМБГ', 'national', 'si.emso (Serbia); Wikipedia'),
    ('Steueridentifikationsnummer', 'tax', 'de.idnr; bzst.de'),
    ('Steuer-IdNr', 'tax', 'de.idnr; bzst.de'),
    ('social insurance number', 'national', 'ca.sin; canada.ca'),
    ("numéro d'assurance sociale", 'national', 'ca.sin; canada.ca'),
    ('NAS', 'national,caps', 'ca.sin; canada.ca'),
    ('IRD number', 'tax', 'nz.ird; ird.govt.nz'),
    ('personas kods', 'national', 'lv; Wikipedia'),
    ('isikukood', 'national', 'ee.ik'),
    ('ת.ז', 'national', 'il.idnr; Wikipedia'),
    ('ИНН', 'tax', 'ru.inn; nalog.gov.ru'),
    ('ІПН', 'tax', 'ua.rntrc; tax.gov.ua'),
    ('Cartão de Cidadão', 'national', 'pt.cc; Wikipedia'),
    ('AMKA', 'national,caps', 'gr.amka'),
]

# Acronyms that name something else as well.
SKIP = {'PIN', 'EPIC', 'VID', 'IN', 'NI', 'CC', 'CI', 'ID', 'TIN', 'NIT', 'RIC', 'IC'}
# Words of an English description: a part holding one of them is not a label.
ENGLISH = re.compile(
    r'\b(number|numbers|code|codes|identifier|identity|identification|national|personal|'
    r'citizen|social|security|tax|card|the|of|for|and|nr|birth|registration|foreigner|physical|'
    r'person|lithuanian|spanish|korean|norwegian)\b', re.I)


def parts(doc):
    """The acronyms before the bracket and the names inside it."""
    line = doc.strip().split('\n')[0].strip().rstrip('.')
    head, _, inside = line.partition('(')
    inside = inside.rsplit(')', 1)[0]
    out = [p.strip() for p in head.split(',')]
    names = [p.strip() for p in inside.split(',')]
    # The last part in the bracket is the English description ("Bulgarian personal identity
    # codes"), unless the bracket holds that part only.
    out += names[:-1] if len(names) > 1 else names
    return [re.sub(r'\s+(No\.?|number)$', '', p).strip(' ."“”') for p in out if p.strip()]


def main():
    rows = []
    for name, cls in MODULES.items():
        try:
            mod = importlib.import_module('stdnum.' + name)
        except ImportError:
            print(f'# missing module {name}', file=sys.stderr)
            continue
        for p in parts(mod.__doc__ or ''):
            words = p.split()
            if not p or p.upper() in SKIP or len(words) > 5:
                continue
            ascii_ = p.isascii()
            if ascii_ and ENGLISH.search(p) and not p.isupper():
                continue
            letters = re.sub(r'[^A-Za-z]', '', p)
            if ascii_ and len(words) == 1 and len(letters) < 3:
                continue
            caps = ascii_ and p.isupper() and len(p.replace('.', '')) <= 5
            forms = {p.lower()} if ascii_ else {p, p.lower(), p.upper(), p[:1].upper() + p[1:].lower()}
            for form in sorted(forms):
                rows.append((form if not ascii_ else form.lower(), cls + (',caps' if caps else ''), name))
    for label, cls, source in EXTRA:
        forms = {label.lower()} if label.isascii() else {label, label.lower(), label.upper(), label[:1].upper() + label[1:].lower()}
        for form in sorted(forms):
            rows.append((form, cls, source))
    seen = set()
    print('# label\tclass\tmodule (python-stdnum 2.2, first line of the module docstring)')
    for label, cls, mod in rows:
        if label in seen:
            continue
        seen.add(label)
        print(f'{label}\t{cls}\t{mod}')


if __name__ == '__main__':
    main()
