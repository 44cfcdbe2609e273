#!/usr/bin/env python3
"""Downloads the suite's real matrices from the SuiteSparse Matrix Collection into a directory of
gzip Matrix Market files, the form `--matrices DIR` reads.

    fetch_matrices.py --dest DIR [--base-url URL] [--only NAME,...] [--list FILE]

For each matrix of the list (default: matrices/suitesparse.json beside this script) it downloads
BASE_URL/MM/<group>/<collection_name>.tar.gz, takes <collection_name>/<collection_name>.mtx out
of the archive and writes it, gzip-compressed, to DIR/<name>.mtx.gz, after checking the size
line (rows, cols, entries in the file) against the list. A file already in DIR is kept and not
downloaded again, so a run that failed part way can simply be repeated. BASE_URL defaults to
https://sparse.tamu.edu; https://suitesparse-collection-website.herokuapp.com serves the same
files, and so does any mirror laid out the same way.

Exit status: 0 when every matrix asked for is in DIR, 1 naming those that are not (not found,
unreachable host, a damaged archive, a size line that disagrees with the list), 2 on a usage
error. Python 3 standard library only.
"""

import argparse
import gzip
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIST = os.path.join(HERE, "matrices", "suitesparse.json")
DEFAULT_BASE_URL = "https://sparse.tamu.edu"
TIMEOUT_SECONDS = 60  # per connection attempt and per read: a stalled server fails the matrix


class FetchError(Exception):
    """One matrix could not be fetched; the message says why."""


class Unreachable(FetchError):
    """The server cannot be reached at all: the matrices after this one are not tried."""


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["matrices"]


def archive_url(base_url, matrix):
    return (f"{base_url.rstrip('/')}/MM/{urllib.parse.quote(matrix['group'])}/"
            f"{urllib.parse.quote(matrix['collection_name'])}.tar.gz")


def download(url, into):
    """Copies the body of `url` into the open file `into`; returns its size in bytes."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
            shutil.copyfileobj(response, into)
    except urllib.error.HTTPError as e:
        raise FetchError(f"HTTP {e.code} {e.reason} for {url}") from e
    except urllib.error.URLError as e:
        host = urllib.parse.urlsplit(url).netloc
        raise Unreachable(f"cannot reach {host}: {e.reason}") from e
    except OSError as e:  # a connection reset or a timeout in the middle of the body
        raise FetchError(f"download of {url} broke off: {e}") from e
    return into.tell()


def size_line(lines):
    """The Matrix Market file's lines up to its size line, and the size line's numbers."""
    header = []
    for line in lines:
        header.append(line)
        text = line.decode("ascii", errors="replace").strip()
        if text and not text.startswith("%"):
            try:
                return header, tuple(int(token) for token in text.split())
            except ValueError:
                break
    raise FetchError("no Matrix Market size line in the file")


def extract(archive, matrix, destination):
    """Writes the archive's .mtx of `matrix` gzip-compressed to `destination`, after checking its
    size line against the list."""
    member = f"{matrix['collection_name']}/{matrix['collection_name']}.mtx"
    # Written under another name and renamed when complete: a file named <name>.mtx.gz is
    # always whole, which is what lets a second run skip it.
    partial = destination + ".part"
    try:
        with tarfile.open(fileobj=archive, mode="r:gz") as tar:
            try:
                source = tar.extractfile(member)
            except KeyError:
                raise FetchError(f"the archive holds no {member}") from None
            header, size = size_line(iter(source.readline, b""))
            expected = (matrix["rows"], matrix["cols"], matrix["file_entries"])
            if size != expected:
                raise FetchError(f"the size line of {member} reads {' '.join(map(str, size))}; "
                                 f"the list says {' '.join(map(str, expected))} (rows, cols, "
                                 f"entries in the file)")
            with gzip.open(partial, "wb") as out:
                out.writelines(header)
                shutil.copyfileobj(source, out)
        os.replace(partial, destination)
    except (tarfile.TarError, EOFError, zlib.error) as e:
        raise FetchError(f"damaged archive: {e}") from e
    except OSError as e:
        raise FetchError(str(e)) from e
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def present(directory, name):
    """The file of matrix `name` already in `directory`, None when there is none. A plain .mtx
    counts too: beside it a .mtx.gz would make the suite read the matrix twice."""
    for suffix in (".mtx.gz", ".mtx"):
        path = os.path.join(directory, name + suffix)
        if os.path.exists(path):
            return path
    return None


def fetch(matrix, base_url, destination):
    url = archive_url(base_url, matrix)
    with tempfile.TemporaryFile() as archive:
        size = download(url, archive)
        archive.seek(0)
        extract(archive, matrix, destination)
    return size


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", required=True, help="directory to write <name>.mtx.gz into")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                        help=f"the collection's address ({DEFAULT_BASE_URL})")
    parser.add_argument("--only", help="comma-separated names of the list to fetch (default: all)")
    parser.add_argument("--list", default=DEFAULT_LIST,
                        help="the JSON list of matrices (matrices/suitesparse.json)")
    args = parser.parse_args(argv)
    args.matrices = read_list(args.list)
    if args.only:
        wanted = [name for name in args.only.split(",") if name]
        known = {m["name"] for m in args.matrices}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            parser.error(f"not in {args.list}: {', '.join(unknown)} (it lists "
                         f"{', '.join(sorted(known))})")
        args.matrices = [m for m in args.matrices if m["name"] in wanted]
    return args


def main(argv=None):
    args = parse_arguments(argv)
    os.makedirs(args.dest, exist_ok=True)
    count, failed, unreachable = len(args.matrices), {}, None
    for index, matrix in enumerate(args.matrices, 1):
        name = matrix["name"]
        prefix = f"fetch: [{index}/{count}] {name}"
        existing = present(args.dest, name)
        if existing:
            print(f"{prefix}: present ({existing}), kept", flush=True)
            continue
        if unreachable:
            failed[name] = f"not tried ({unreachable})"
            continue
        print(f"{prefix}: {matrix['group']}/{matrix['collection_name']} (id {matrix['id']}), "
              f"{matrix['rows']} x {matrix['cols']}, {matrix['nnz']} nonzeros", flush=True)
        destination = os.path.join(args.dest, f"{name}.mtx.gz")
        try:
            size = fetch(matrix, args.base_url, destination)
        except FetchError as e:
            print(f"{prefix}: FAILED: {e}", flush=True)
            failed[name] = str(e)
            if isinstance(e, Unreachable):
                unreachable = str(e)
            continue
        print(f"{prefix}: {size / 1e3:,.0f} kB downloaded, wrote {destination}", flush=True)
    if failed:
        print(f"fetch: {len(failed)} of {count} matrices are not in {args.dest}:", file=sys.stderr)
        for name, reason in failed.items():
            print(f"  {name}: {reason}", file=sys.stderr)
        return 1
    print(f"fetch: all {count} matrices are in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
