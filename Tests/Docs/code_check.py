"""Checks (e) and (f): no hand-written file over 300 lines, and HTTPLite's folders used in one
direction."""

import os
import re

from docs_common import (HTTPLITE, HTTPLITE_LAYERS, MAX_SOURCE_LINES, MIGRATION_LISTS, ROOT, SOURCE_FOLDERS,
                         TOP_LEVEL_TYPE, read)


def check_source_lengths(results):
    count = 0
    for top in SOURCE_FOLDERS:
        for folder, _, files in os.walk(top):
            for name in sorted(files):
                if name.endswith((".swift", ".py")) and name not in MIGRATION_LISTS:
                    count += check_length(results, os.path.join(folder, name))
    return count


def check_length(results, path):
    """Checks one file; 0 for a generated one, which is not counted."""
    text = read(path)
    if text.startswith("// Generated"):
        return 0
    lines = text.count("\n")
    results.check(lines <= MAX_SOURCE_LINES, "%s: %d lines, more than %d (split it by concept)"
                  % (os.path.relpath(path, ROOT), lines, MAX_SOURCE_LINES))
    return 1


def check_httplite_layers(results):
    files = {}
    for folder in sorted(os.listdir(HTTPLITE)):
        path = os.path.join(HTTPLITE, folder)
        if os.path.isdir(path):
            files[folder] = [(name, read(os.path.join(path, name))) for name in sorted(os.listdir(path))
                             if name.endswith(".swift")]
    results.check(set(files) == set(HTTPLITE_LAYERS), "Sources/HTTPLite: folders %s, but the layers "
                  "name %s (update HTTPLITE_LAYERS and docs/ARCHITECTURE.md)"
                  % (sorted(files), sorted(HTTPLITE_LAYERS)))
    declared = {}
    for folder, entries in files.items():
        for _, text in entries:
            for name in TOP_LEVEL_TYPE.findall(text):
                declared[name] = folder
    count = 0
    for folder, entries in files.items():
        allowed = HTTPLITE_LAYERS.get(folder, set()) | {folder}
        for name, text in entries:
            count += 1
            code = "\n".join(line for line in text.split("\n") if not line.strip().startswith("//"))
            wrong = sorted("%s (%s/)" % (type_name, other) for type_name, other in declared.items()
                           if other not in allowed and re.search(r"\b%s\b" % re.escape(type_name), code))
            results.check(not wrong, "Sources/HTTPLite/%s/%s uses %s, above it" % (folder, name, ", ".join(wrong)))
    return count
