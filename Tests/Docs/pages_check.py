"""Checks (b) to (d): the targets and folders on docs/ARCHITECTURE.md, the README's length,
and every relative link of the pages."""

import os
import re

from docs_common import (ARCHITECTURE, HEADING, INLINE_CODE, LINK, LINK_DEFINITION, MAX_README_WORDS, PACKAGE,
                         README, ROOT, SCHEME, TARGET, outside_fences, read)


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
