"""Checks (a) and (a2): every option of `webapp --help`, and of each command's, documented once
on docs/CONFIGURATION.md."""

import re
import subprocess
import sys

from docs_common import CONFIGURATION, DEFINITION, LONG_OPTION, outside_fences, read


def help_options(binary):
    run = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60)
    output = run.stdout + run.stderr
    if run.returncode != 0 or "USAGE" not in output:
        sys.exit("check_docs: `%s --help` failed (exit %d):\n%s" % (binary, run.returncode, output))
    return sorted(set(LONG_OPTION.findall(output)))


def server_part(lines):
    """The configuration page's lines above its "## Commands" heading (the server's options)."""
    for index, line in enumerate(lines):
        if line.strip() == "## Commands":
            return lines[:index]
    return lines


def check_options(results, binary):
    options = help_options(binary)
    defined = {}
    for number, line in enumerate(server_part(outside_fences(read(CONFIGURATION))), 1):
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


def command_help(binary, words):
    run = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, timeout=60)
    output = run.stdout + run.stderr
    if run.returncode != 0 or "USAGE" not in output:
        sys.exit("check_docs: `webapp %s --help` failed (exit %d):\n%s" % (" ".join(words), run.returncode, output))
    return output


def listed_commands(output, heading):
    """The words of the lines indented two spaces under the line that starts with `heading`
    (up to the next blank line)."""
    words, inside = [], False
    for line in output.split("\n"):
        if not inside and line.startswith(heading):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            match = re.match(r"^  ([a-z][a-z-]*)\b", line)
            if match:
                words.append(match.group(1))
    return words


def leaf_commands(binary):
    """Every command path (`["admin", "apps", "add"]`) that runs rather than lists subcommands,
    with the long options its --help prints."""
    leaves, queue = [], [[word] for word in listed_commands(command_help(binary, []), "Commands")]
    while queue:
        words = queue.pop(0)
        output = command_help(binary, words)
        subcommands = [word for word in listed_commands(output, "SUBCOMMANDS:") if word != "help"]
        queue.extend(words + [word] for word in subcommands)
        options = sorted(set(LONG_OPTION.findall(output.split("OPTIONS:", 1)[-1])) - {"--help"})
        if not subcommands or options:
            leaves.append((words, options))
    return leaves


def command_sections(lines):
    """Option definitions under each "### ..." heading of the Commands part: heading -> {option: [lines]}."""
    sections, current, inside = {}, None, False
    for number, line in enumerate(lines, 1):
        if line.strip() == "## Commands":
            inside = True
            continue
        if not inside:
            continue
        if line.startswith("## "):
            break
        if line.startswith("### "):
            current = line[4:].strip()
            sections.setdefault(current, {})
            continue
        match = DEFINITION.match(line)
        if match and current:
            sections[current].setdefault(match.group(1), []).append(number)
    return sections


def check_commands(results, binary):
    leaves = leaf_commands(binary)
    results.check(bool(leaves), "`webapp --help` names no commands (a paragraph that starts \"Commands\")")
    sections = command_sections(outside_fences(read(CONFIGURATION)))
    shared = sections.get("Every command", {})
    for words, options in leaves:
        heading = "`webapp %s`" % " ".join(words)
        own = sections.get(heading)
        results.check(own is not None, "docs/CONFIGURATION.md: no section \"### %s\"" % heading)
        own = own or {}
        for option in options:
            lines = own.get(option, []) + shared.get(option, [])
            results.check(len(lines) == 1, "docs/CONFIGURATION.md: %s of %s is %s" % (
                option, heading, "not documented" if not lines else
                "documented %d times (lines %s)" % (len(lines), ", ".join(map(str, lines)))))
        for option in sorted(set(own) - set(options)):
            results.check(False, "docs/CONFIGURATION.md: %s is documented under %s (line %s) but its "
                          "--help prints no such option" % (option, heading, own[option][0]))
    # "Every command" holds only what every command takes; a heading names a real command.
    for option, lines in sorted(shared.items()):
        lacking = [" ".join(words) for words, options in leaves if option not in options]
        results.check(not lacking, "docs/CONFIGURATION.md: %s is under \"Every command\" (line %d) but "
                      "`webapp %s --help` prints no such option" % (option, lines[0], (lacking or [""])[0]))
    commands = {"`webapp %s`" % " ".join(words) for words, _ in leaves} | {"Every command"}
    for heading in sorted(set(sections) - commands):
        results.check(False, "docs/CONFIGURATION.md: \"### %s\" under Commands names no command "
                      "that runs (not in `webapp --help`'s commands and their SUBCOMMANDS)" % heading)
    return len(leaves)
