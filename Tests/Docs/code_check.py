"""Checks (e) and (f): no hand-written file over 300 lines, and HTTPLite's folders used in one
direction."""

import os
import re

from docs_common import (EXTENSION_MEMBER, HTTPLITE, HTTPLITE_LAYERS, LONG_FILES, MAX_SOURCE_LINES, ROOT,
                         SOURCE_FOLDERS, TOP_LEVEL_FUNCTION, TOP_LEVEL_TYPE, read)


def check_source_lengths(results):
    count = 0
    for top in SOURCE_FOLDERS:
        for folder, _, files in os.walk(top):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith((".swift", ".py")) and path not in LONG_FILES:
                    count += check_length(results, path)
    return count


def check_length(results, path):
    text = read(path)
    lines = len(text.splitlines())
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
    # What each folder declares, and how a use of it reads: a type or function by its name, an
    # extension's member as `.member` or `member(`.
    declared, names = [], {}
    for folder, entries in files.items():
        for _, text in entries:
            # Every name the folder declares, members of its types too: a name it has itself
            # (ClientAddress.group beside RouteScope's group) is no use of another folder.
            names.setdefault(folder, set()).update(
                TOP_LEVEL_TYPE.findall(text) + TOP_LEVEL_FUNCTION.findall(text) + EXTENSION_MEMBER.findall(text))
            declared += [(name, folder, r"\b%s\b" % name) for name in TOP_LEVEL_TYPE.findall(text)]
            declared += [(name, folder, r"\b%s\(" % name) for name in TOP_LEVEL_FUNCTION.findall(text)]
            declared += [(name, folder, r"(?:\.%s\b|\b%s\()" % (name, name)) for name in extension_members(text)]
    count = 0
    for folder, entries in files.items():
        allowed = HTTPLITE_LAYERS.get(folder, set()) | {folder}
        for name, text in entries:
            count += 1
            code = "\n".join(line for line in text.split("\n") if not line.strip().startswith("//"))
            own = set().union(*(names.get(layer, set()) for layer in allowed))
            wrong = sorted({"%s (%s/)" % (used, other) for used, other, pattern in declared
                            if other not in allowed and used not in own and re.search(pattern, code)})
            results.check(not wrong, "Sources/HTTPLite/%s/%s uses %s, above it" % (folder, name, ", ".join(wrong)))
    return count


def extension_members(text):
    """The members `extension … { … }` blocks at the top level of `text` declare."""
    members, inside = [], False
    for line in text.split("\n"):
        if re.match(r"^(?:public |internal |package )*extension\b", line):
            inside = True
        elif line.startswith("}"):
            inside = False
        elif inside:
            members += EXTENSION_MEMBER.findall(line)
    return members
