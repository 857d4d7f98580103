"""The blocks of docs/GATEWAY.md that the gateway tests run, marked `<!-- tested: NAME ... -->`,
and the names the doc uses there, which the tests replace with their own.

Each replacement must find what it replaces (`replace`), so an edit of the docs that the tests
cannot follow fails loudly instead of testing something else.
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "GATEWAY.md")

# Names the doc uses, which the tests replace with their own (gateway.py's hosts, free ports).
DOC_LOGIN_HOST = "login.example.com"
DOC_APP_HOST = "wiki.example.com"
DOC_WEBAPP = "127.0.0.1:8080"
DOC_UPSTREAM = "127.0.0.1:3000"
DOC_PUBLIC_URL = "https://login.example.com"


def tested_block(name):
    """The fenced block after `<!-- tested: NAME ` in docs/GATEWAY.md."""
    with open(DOC) as doc:
        text = doc.read()
    marker = text.find("<!-- tested: %s " % name)
    if marker < 0:
        raise AssertionError("docs/GATEWAY.md has no block marked 'tested: %s'" % name)
    fence = text.index("```", marker)
    body = text.index("\n", fence) + 1
    end = text.index("\n```", body)
    return text[body:end + 1]


def replace(text, old, new, where):
    if old not in text:
        raise AssertionError("the %s block of docs/GATEWAY.md no longer has %r" % (where, old))
    return text.replace(old, new)


def block_containing(text, needle):
    """The `{ ... }` block (an nginx `server`, a Caddy site) that `needle` opens or is inside,
    from the start of its first line to its closing brace, with the newline after it."""
    index = text.index(needle)
    line_start = text.rfind("\n", 0, index) + 1
    line_end = text.index("\n", index)
    if text[line_start:line_end].rstrip().endswith("{"):
        opening = text.index("{", index)
    else:
        depth, opening = 0, index
        while True:
            opening -= 1
            if text[opening] == "}":
                depth += 1
            elif text[opening] == "{":
                if depth == 0:
                    break
                depth -= 1
    start = text.rfind("\n", 0, opening) + 1
    depth = 0
    for position in range(opening, len(text)):
        if text[position] == "{":
            depth += 1
        elif text[position] == "}":
            depth -= 1
            if depth == 0:
                return text[start:position + 1] + "\n"
    raise AssertionError("unbalanced braces in the docs block")
