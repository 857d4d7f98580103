"""What the documentation checks share: the repository's paths, the patterns of markdown and
`--help`, and the tally of passed and failed checks."""

import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CONFIGURATION = os.path.join(ROOT, "docs", "CONFIGURATION.md")
ARCHITECTURE = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
README = os.path.join(ROOT, "README.md")
PACKAGE = os.path.join(ROOT, "Package.swift")
MAX_README_WORDS = 1500
# The folders whose hand-written Swift and Python files are held to MAX_SOURCE_LINES.
SOURCE_FOLDERS = [os.path.join(ROOT, folder) for folder in ("Sources", "Tests", "bench", "scripts")]
MAX_SOURCE_LINES = 300
HTTPLITE = os.path.join(ROOT, "Sources", "HTTPLite")
# Each folder of HTTPLite and the folders it may use.
HTTPLITE_LAYERS = {
    "Messages": set(),
    "Routing": {"Messages"},
    "Compression": {"Messages", "Routing"},
    "Server": {"Messages", "Routing"},
    "Files": {"Messages", "Routing", "Compression"},
}
# What a file of HTTPLite declares for others: its top-level types and functions, and the
# members its extensions add (`extension StatusError { static let internalServerError … }`).
MODIFIERS = r"(?:@\w+(?:\([^)]*\))?\s+|public |open |final |internal |package |indirect |static |nonisolated |mutating )*"
TOP_LEVEL_TYPE = re.compile(r"^" + MODIFIERS + r"(?:struct|class|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)", re.M)
TOP_LEVEL_FUNCTION = re.compile(r"^" + MODIFIERS + r"func\s+([A-Za-z_]\w*)", re.M)
EXTENSION_MEMBER = re.compile(r"^    " + MODIFIERS + r"(?:func|var|let)\s+([A-Za-z_]\w*)", re.M)
# Files left out of the length rule, by path: the generated phone-number data, and the two
# migration lists (a log of shipped schema changes, added to at the end and never edited).
LONG_FILES = {os.path.join(ROOT, path) for path in (
    "Sources/AuthCore/PhoneNumbers/NANPMetadata.swift",
    "Sources/SQLiteStorage/Migrations/SQLiteMigrations.swift",
    "Sources/PostgresStorage/PostgresMigrations.swift",
)}

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
