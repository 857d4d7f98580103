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
    Only the page above its "## Commands" heading counts for the server's options.
(a2) Commands. `webapp --help` names its commands (a paragraph that starts "Commands", then
    a line for each: two spaces, the word, the meaning); each is run with `--help` in turn, and so are the
    subcommands their SUBCOMMANDS list names, down to the commands that take options. Every
    long option of such a command is defined (the same rule as (a)) exactly once, either in
    the page's section headed "### `webapp COMMAND`" or in its "### Every command" section,
    and an option defined under a command's heading must be one its --help prints; an option
    under "Every command" must be one every command prints, and every "### `webapp …`"
    heading under Commands must name a command that runs. (`webapp --help`'s paragraph and
    the dispatch come from one list, `Sources/WebApp/Commands/Subcommand.swift`.)
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
(e) Source files. No hand-written Swift or Python file under Sources/, Tests/, bench/ or
    scripts/ is longer than 300 lines (a file is split by concept: `Type+Concept.swift`).
    Three files, named by path in docs_common.LONG_FILES, are left out: the generated phone
    data (`NANPMetadata.swift`) and the two migration lists, a log of shipped schema changes
    that is added to at the end and never edited.
(f) HTTPLite's layers. Its folders are used in one direction, as docs/ARCHITECTURE.md says:
    `Messages/` (requests, responses, errors that carry their answer) uses no other folder;
    `Routing/` uses `Messages/`; `Compression/` and `Server/` use those two (and not each
    other); `Files/` uses `Compression/` too. A file "uses" a folder when its code (comments
    left out) names a type or function declared at the top level of a file in that folder, or
    a member an extension there adds (`.member`, `member(`), unless its own layers declare a
    name the same.
"""

import sys

from code_check import check_httplite_layers, check_source_lengths
from docs_common import Results
from options_check import check_commands, check_options
from pages_check import check_folders, check_links, check_readme_length, check_targets


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 Tests/Docs/check_docs.py PATH/TO/webapp")
    results = Results()
    options = check_options(results, sys.argv[1])
    commands = check_commands(results, sys.argv[1])
    targets = check_targets(results)
    folders = check_folders(results)
    words = check_readme_length(results)
    links = check_links(results)
    sources = check_source_lengths(results)
    layers = check_httplite_layers(results)
    for failure in results.failures:
        print("FAIL " + failure)
    print("(%d options, %d commands, %d targets, %d folders, README %d words, %d relative links, %d source files, %d HTTPLite files in layers)"
          % (options, commands, targets, folders, words, links, sources, layers))
    print("docs: %d passed, %d failed" % (results.passed, len(results.failures)))
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
