#!/usr/bin/env python3
"""Checks the documentation against the code it describes.

Usage: python3 Tests/Docs/check_docs.py PATH/TO/webapp

Run from anywhere; the repository is found from this file's place. Python 3 standard library
only. Each check below counts as passed or failed; any failure exits 1 and names what is wrong,
and the last line is `docs: N passed, M failed`.

(a) Options. `webapp --help` is run and every long option it prints (`--something`, anywhere
    in the output) must be documented in docs/CONFIGURATION.md exactly once. The rule: an
    option is *documented* by a line that is a table row or a list item whose first cell or
    first text is the option in backticks, such as

        | `--public-url` | ...            (a table row)
        - `--public-url`: ...             (a list item; `*` or `+` too)

    The backticked option may carry a value (`--sms outbox`) and still count as that option.
    No such line: the option is missing. Two or more such lines: it is documented twice.
    Mentions anywhere else in the page (prose, other cells, code blocks) do not count.
    Such a line for an option --help does not print is reported too (a stale option).
(b) Targets. Every `name: "X"` of a `.target`, `.testTarget` or `.executableTarget` in
    Package.swift must appear in docs/ARCHITECTURE.md in backticks (`X`).
(b2) Folders. Every folder of a target in Sources/ (`Sources/WebApp/Console/`) is named on
    docs/ARCHITECTURE.md in backticks, as its name with a slash (`Console/`) or within a path
    (`Sources/WebApp/Console/`, `Console/ConsoleQueries`); every folder of Tests/ is named as
    its target (`WebAppTests`) or its path (`Tests/Resilience`). A newcomer finds where a thing
    lives from that page alone.
(c) README length. README.md has at most 1,500 words, split on whitespace as `wc -w` does.
(d) Links. Every relative markdown link or image (`[text](path)`, `![alt](path)`, and
    `[label]: path` definitions) in README.md and docs/*.md, outside fenced code blocks and
    inline code, must point to a file or folder that exists, resolved from the page's folder.
    Addresses with a scheme (`https:`, `mailto:`) are not checked; a link to `#anchor` alone or
    `page.md#anchor` is checked for the anchor too, against the headings of that markdown
    page, slugged as GitHub does (lower case; punctuation other than `-` and `_` dropped;
    spaces become `-`; repeats get `-1`, `-2`, ...).
(e) Source files. No hand-written Swift file under Sources/ is longer than 300 lines (a file
    is split by concept: `Type+Concept.swift`). Two kinds are not hand-written prose to read
    whole and are left out: generated files (their first line starts `// Generated`) and the
    two migration lists (`SQLiteMigrations.swift`, `PostgresMigrations.swift`), a log of
    shipped schema changes that is added to at the end and never edited.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CONFIGURATION = os.path.join(ROOT, "docs", "CONFIGURATION.md")
ARCHITECTURE = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
README = os.path.join(ROOT, "README.md")
PACKAGE = os.path.join(ROOT, "Package.swift")
MAX_README_WORDS = 1500
SOURCES = os.path.join(ROOT, "Sources")
MAX_SOURCE_LINES = 300
MIGRATION_LISTS = {"SQLiteMigrations.swift", "PostgresMigrations.swift"}

LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
# A table row or list item whose first thing is a backticked long option.
DEFINITION = re.compile(r"^\s*(?:\|\s*|[-*+]\s+)`(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=[`\s=])")
TARGET = re.compile(r"\.(?:target|testTarget|executableTarget)\s*\(\s*name:\s*\"([^\"]+)\"")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


class Results:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, ok, failure):
        if ok:
            self.passed += 1
        else:
            self.failures.append(failure)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def outside_fences(text):
    """The page's lines with fenced code blocks blanked out (line numbers kept)."""
    lines, fenced, marker = [], False, None
    for line in text.split("\n"):
        match = FENCE.match(line)
        if match and (not fenced or match.group(1) == marker):
            fenced, marker = (not fenced), match.group(1)
            lines.append("")
        else:
            lines.append("" if fenced else line)
    return lines


def help_options(binary):
    run = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60)
    output = run.stdout + run.stderr
    if run.returncode != 0 or "USAGE" not in output:
        sys.exit("check_docs: `%s --help` failed (exit %d):\n%s" % (binary, run.returncode, output))
    return sorted(set(LONG_OPTION.findall(output)))


def check_options(results, binary):
    options = help_options(binary)
    defined = {}
    for number, line in enumerate(outside_fences(read(CONFIGURATION)), 1):
        match = DEFINITION.match(line)
        if match:
            defined.setdefault(match.group(1), []).append(number)
    missing = [option for option in options if option not in defined]
    for option in options:
        lines = defined.get(option, [])
        results.check(len(lines) == 1, "docs/CONFIGURATION.md: %s is %s" % (
            option, "not documented" if not lines else
            "documented %d times (lines %s)" % (len(lines), ", ".join(map(str, lines)))))
    for option in sorted(set(defined) - set(options)):
        results.check(False, "docs/CONFIGURATION.md: %s is documented (line %s) but `webapp --help` "
                      "prints no such option" % (option, defined[option][0]))
    if missing:
        print("options missing from docs/CONFIGURATION.md: " + " ".join(missing))
    return len(options)


def check_targets(results):
    targets = TARGET.findall(read(PACKAGE))
    results.check(bool(targets), "Package.swift: no targets found")
    architecture = read(ARCHITECTURE)
    for target in targets:
        results.check("`%s`" % target in architecture,
                      "docs/ARCHITECTURE.md: target %s is not named (in backticks)" % target)
    return len(targets)


def check_folders(results):
    architecture = read(ARCHITECTURE)
    named = " ".join(re.findall(r"`([^`]+)`", architecture))
    count = 0
    sources = os.path.join(ROOT, "Sources")
    for target in sorted(os.listdir(sources)):
        for folder in sorted(os.listdir(os.path.join(sources, target))):
            if not os.path.isdir(os.path.join(sources, target, folder)):
                continue
            count += 1
            results.check(re.search(r"(^|[\s/`])%s/" % re.escape(folder), named) is not None,
                          "docs/ARCHITECTURE.md: folder Sources/%s/%s/ is not named (in backticks)" % (target, folder))
    tests = os.path.join(ROOT, "Tests")
    for folder in sorted(os.listdir(tests)):
        if not os.path.isdir(os.path.join(tests, folder)) or folder.startswith((".", "__")):
            continue
        count += 1
        results.check("`%s`" % folder in architecture or "`Tests/%s" % folder in architecture,
                      "docs/ARCHITECTURE.md: folder Tests/%s is not named (in backticks)" % folder)
    return count


def check_readme_length(results):
    words = len(read(README).split())
    results.check(words <= MAX_README_WORDS,
                  "README.md: %d words, more than %d" % (words, MAX_README_WORDS))
    return words


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for line in outside_fences(read(path)):
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else "%s-%d" % (base, count))
        for name in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", read(path)):
            found.add(name)
        cache[path] = found
    return cache[path]


def pages():
    docs = os.path.join(ROOT, "docs")
    return [README] + sorted(os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md"))


def check_links(results):
    count = 0
    for page in pages():
        shown = os.path.relpath(page, ROOT)
        for number, line in enumerate(outside_fences(read(page)), 1):
            line = INLINE_CODE.sub("", line)
            targets = LINK.findall(line)
            definition = LINK_DEFINITION.match(line)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                if SCHEME.match(target):
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                path = path.split("?", 1)[0]
                file = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = "%s:%d: %s" % (shown, number, target)
                if not os.path.exists(file):
                    results.check(False, where + " points to a missing file")
                elif anchor and file.endswith(".md") and os.path.isfile(file):
                    results.check(anchor in anchors(file), where + " names no heading of " +
                                  os.path.relpath(file, ROOT))
                else:
                    results.check(True, "")
    return count


def check_source_lengths(results):
    count = 0
    for folder, _, files in os.walk(SOURCES):
        for name in sorted(files):
            if not name.endswith(".swift") or name in MIGRATION_LISTS:
                continue
            path = os.path.join(folder, name)
            text = read(path)
            if text.startswith("// Generated"):
                continue
            count += 1
            lines = text.count("\n")
            results.check(lines <= MAX_SOURCE_LINES, "%s: %d lines, more than %d (split it by concept)"
                          % (os.path.relpath(path, ROOT), lines, MAX_SOURCE_LINES))
    return count


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 Tests/Docs/check_docs.py PATH/TO/webapp")
    results = Results()
    options = check_options(results, sys.argv[1])
    targets = check_targets(results)
    folders = check_folders(results)
    words = check_readme_length(results)
    links = check_links(results)
    sources = check_source_lengths(results)
    for failure in results.failures:
        print("FAIL " + failure)
    print("(%d options, %d targets, %d folders, README %d words, %d relative links, %d source files)"
          % (options, targets, folders, words, links, sources))
    print("docs: %d passed, %d failed" % (results.passed, len(results.failures)))
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
