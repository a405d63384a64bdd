#!/usr/bin/env python3
"""Fetches the shared test data (CIRCT's and Dynamatic's files) into ../shared.

The tests read real compiler output from a folder beside the checkout, `../shared` (or the
folder `HSIR_SHARED` names), which is not part of the repository. Its files come from public
GitHub repositories at pinned commits; `scripts/shared-sources.tsv` lists each one (where it
goes, repository, commit, path, git blob id). This script downloads them from
raw.githubusercontent.com into the same layout and checks each against its blob id, so the
result is byte for byte the folder the tests were written against.

    python3 scripts/fetch-shared.py             # into ../shared (or $HSIR_SHARED)
    python3 scripts/fetch-shared.py --dest DIR
    python3 scripts/fetch-shared.py --check     # only check what is there, no network

Not everything can be fetched: `dynamatic-suite/RESULTS.tsv` (what Dynamatic's own RTL
measured), `tools/` (the benchmarks' generators) and the SOURCES.md files come with a copy of
the shared folder only; the tests that need them say they are skipped. Without network access,
copy the shared folder beside the checkout instead.

Exit status: 0 (everything listed is present and intact), 1 (some files are missing or differ
after fetching), 2 (usage, or GitHub could not be reached).
"""

import argparse
import hashlib
import os
import sys
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIST = os.path.join(HERE, "shared-sources.tsv")

NOT_FETCHABLE = (
    "not fetched (they come with a copy of the shared folder only; the tests that need them "
    "say they are skipped): dynamatic-suite/RESULTS.tsv, tools/, the SOURCES.md files"
)


def blob_id(data):
    """The git blob id of `data` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def entries():
    out = []
    with open(LIST, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 5:
                sys.exit(f"{LIST}:{number}: expected 5 tab-separated cells, found {len(cells)}")
            out.append(cells)
    return out


def default_dest():
    given = os.environ.get("HSIR_SHARED")
    if given:
        return os.path.join(ROOT, given)
    return os.path.join(ROOT, "..", "shared")


def intact(path, blob):
    try:
        with open(path, "rb") as f:
            return blob_id(f.read()) == blob
    except OSError:
        return False


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temp = f"{path}.{os.getpid()}.fetch-tmp"
    with open(temp, "wb") as f:
        f.write(data)
    os.replace(temp, path)


def unreachable(url, reason, dest, fetched, missing):
    print(
        f"error: cannot fetch {url}: {reason}\n"
        f"Without access to GitHub, copy the shared folder to {dest} instead "
        "(it is the folder `../shared` beside the checkout the tests were written against).",
        file=sys.stderr,
    )
    print(f"{fetched} of {missing} missing files fetched before that", file=sys.stderr)
    return 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", help="the shared folder (default: $HSIR_SHARED, else ../shared)")
    parser.add_argument("--check", action="store_true", help="check the files there; fetch nothing")
    parser.add_argument(
        "--base-url",
        default="https://raw.githubusercontent.com",
        help="where <repo>/<commit>/<path> is served (a mirror, or file:// for tests)",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per download")
    args = parser.parse_args()
    dest = os.path.abspath(args.dest or default_dest())
    files = entries()

    missing = [e for e in files if not intact(os.path.join(dest, e[0]), e[4])]
    if args.check:
        for e in missing:
            print(f"missing or different: {os.path.join(dest, e[0])}")
        print(f"{len(files) - len(missing)} of {len(files)} files intact in {dest}")
        return 1 if missing else 0

    fetched, bad = 0, []
    for target, repo, commit, path, blob in missing:
        url = f"{args.base_url.rstrip('/')}/{repo}/{commit}/{path}"
        try:
            with urllib.request.urlopen(url, timeout=args.timeout) as response:
                data = response.read()
        except urllib.error.HTTPError as e:
            bad.append(f"{target}: {url}: HTTP {e.code}")
            continue
        except urllib.error.URLError as e:
            if not isinstance(e.reason, FileNotFoundError):
                return unreachable(url, e.reason, dest, fetched, len(missing))
            bad.append(f"{target}: {url}: not there")
            continue
        except OSError as e:
            return unreachable(url, e, dest, fetched, len(missing))
        if blob_id(data) != blob:
            bad.append(f"{target}: {url} is not the file the tests expect (blob {blob_id(data)}, not {blob})")
            continue
        write(os.path.join(dest, target), data)
        fetched += 1
    for problem in bad:
        print(f"error: {problem}", file=sys.stderr)
    print(f"{len(files) - len(missing) + fetched} of {len(files)} files intact in {dest} ({fetched} fetched)")
    print(NOT_FETCHABLE)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
