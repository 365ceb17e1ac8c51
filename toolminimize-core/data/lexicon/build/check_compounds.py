"""Lists the frequent words that the detector reads as a health condition, to check the
compound rule (`src/classify/lexicon/compound.rs`, heads in `compound_heads.txt`): a word
listed that is no condition ("Krebsgang", "Reisefieber") means a head, a linking element or a
term to narrow. With --baseline, only the words that the baseline binary did not read as one
are listed (the words a change adds).

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    /tmp/wf/bin/python build/check_compounds.py target/release/toolminimize de,nl,sv,da,nb \
        [--baseline OLD_BINARY] [--top 50000]

Word lists: the most frequent words of each language in wordfreq (PyPI `wordfreq`, Apache-2.0
code, CC BY-SA 4.0 data); only words of at least 8 letters, the shortest compound the rule
reads.
"""
import argparse
import json
import subprocess

from wordfreq import top_n_list

TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
        "required": ["city"],
    },
}
BATCH = 400


def conditions(binary, words):
    """The words of `words` that the binary reports whole as a health finding."""
    calls, batches = [], []
    for i in range(0, len(words), BATCH):
        batch = words[i:i + BATCH]
        batches.append(batch)
        calls.append(json.dumps({"id": str(len(calls)), "tool": TOOL, "exposure": "third_party",
                                 "arguments": {"city": "Oslo", "notes": ". ".join(batch)}}))
    out = subprocess.run([binary, "minimize"], input="\n".join(calls) + "\n", text=True,
                         capture_output=True, check=True).stdout.splitlines()
    found = set()
    for line, batch in zip(out, batches):
        text = ". ".join(batch).encode()
        for item in json.loads(line)["report"]["items"]:
            if item["category"] != "health":
                continue
            a, b = item["span"]
            found.add(text[a:b].decode(errors="replace"))
    return found & set(words)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("langs")
    ap.add_argument("--baseline")
    ap.add_argument("--top", type=int, default=50000)
    args = ap.parse_args()
    for lang in args.langs.split(","):
        words = [w for w in top_n_list(lang, args.top) if len(w) >= 8 and w.isalpha()]
        found = conditions(args.binary, words)
        if args.baseline:
            found -= conditions(args.baseline, words)
        print(f"{lang} {len(found)}: {' '.join(sorted(found))}")


if __name__ == "__main__":
    main()
