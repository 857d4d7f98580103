"""libphonenumber's verdict on every 10-digit North American number, as a digit trie.

The patterns of country code 1 in libphonenumber's metadata are plain digit regexes (digits,
\\d, [classes], (?:groups), |, {n} and {n,m}). Each is expanded into the finite list of
sequences of digit sets it matches; walking the ten digits of a number through all of them at
once, with the regions checked in libphonenumber's order, gives the same region and type as
`phonenumbers.region_code_for_number` and `phonenumbers.number_type`. The walk is memoised
on what is still alive, so the result is a small acyclic automaton whose subtrees that all end
the same way collapse into one leaf.
"""

import phonenumbers
from phonenumbers import PhoneMetadata

# The order _number_type_helper tests the types in (fixed line and mobile come last).
SPECIAL_TYPES = [
    ("premium_rate", "premiumRate"),
    ("toll_free", "tollFree"),
    ("shared_cost", "sharedCost"),
    ("voip", "voip"),
    ("personal_number", "personalNumber"),
    ("pager", "pager"),
    ("uan", "uan"),
    ("voicemail", "voicemail"),
]
NATIONAL_LENGTH = 10
DIGITS = frozenset("0123456789")


class PatternError(Exception):
    pass


def expand(pattern):
    """Every sequence of digit sets `pattern` matches, as a list of tuples of frozensets."""
    sequences, end = _alternation(pattern, 0)
    if end != len(pattern):
        raise PatternError(f"unexpected {pattern[end]!r} at {end} in {pattern}")
    return sorted(set(sequences), key=lambda s: (len(s), [sorted(c) for c in s]))


def _alternation(pattern, i):
    branches = []
    while True:
        branch, i = _concatenation(pattern, i)
        branches.extend(branch)
        if i < len(pattern) and pattern[i] == "|":
            i += 1
            continue
        return branches, i


def _concatenation(pattern, i):
    sequences = [()]
    while i < len(pattern) and pattern[i] not in "|)":
        atom, i = _atom(pattern, i)
        low, high, i = _quantifier(pattern, i)
        repeated = []
        for count in range(low, high + 1):
            repeated.extend(_power(atom, count))
        sequences = [left + right for left in sequences for right in repeated]
        if len(sequences) > 200_000:
            raise PatternError(f"{pattern} expands to too many sequences")
    return sequences, i


def _power(atom, count):
    result = [()]
    for _ in range(count):
        result = [left + right for left in result for right in atom]
    return result


def _atom(pattern, i):
    char = pattern[i]
    if char.isdigit():
        return [(frozenset(char),)], i + 1
    if pattern.startswith("\\d", i):
        return [(DIGITS,)], i + 2
    if char == "[":
        end = pattern.index("]", i)
        body, members = pattern[i + 1 : end], set()
        if body.startswith("^"):
            raise PatternError(f"negated class in {pattern}")
        j = 0
        while j < len(body):
            if j + 2 < len(body) and body[j + 1] == "-":
                members.update(str(d) for d in range(int(body[j]), int(body[j + 2]) + 1))
                j += 3
            else:
                members.add(body[j])
                j += 1
        if not members <= DIGITS:
            raise PatternError(f"non-digit class in {pattern}")
        return [(frozenset(members),)], end + 1
    if char == "(":
        i += 3 if pattern.startswith("(?:", i) else 1
        inner, i = _alternation(pattern, i)
        if i >= len(pattern) or pattern[i] != ")":
            raise PatternError(f"unclosed group in {pattern}")
        return inner, i + 1
    raise PatternError(f"unsupported {char!r} at {i} in {pattern}")


def _quantifier(pattern, i):
    if i < len(pattern) and pattern[i] == "?":
        return 0, 1, i + 1
    if i < len(pattern) and pattern[i] == "{":
        end = pattern.index("}", i)
        parts = pattern[i + 1 : end].split(",")
        low = int(parts[0])
        high = int(parts[1]) if len(parts) == 2 else low
        return low, high, end + 1
    if i < len(pattern) and pattern[i] in "*+":
        raise PatternError(f"unbounded repetition in {pattern}")
    return 1, 1, i


class Description:
    """One PhoneNumberDesc, for 10-digit numbers: the sequences a full match may take."""

    def __init__(self, desc):
        self.sequences = ()
        if desc is None or not desc.national_number_pattern:
            return
        if desc.possible_length and NATIONAL_LENGTH not in desc.possible_length:
            return
        self.sequences = tuple(s for s in expand(desc.national_number_pattern) if len(s) == NATIONAL_LENGTH)


class Region:
    """One region's metadata: its leading digits and its descriptions in the order they are tested."""

    def __init__(self, code):
        metadata = PhoneMetadata.metadata_for_region(code)
        self.code = code
        # A prefix match, as re.match does it: any sequence, of any length up to ten digits.
        self.leading = tuple(expand(metadata.leading_digits)) if metadata.leading_digits is not None else None
        self.general = Description(metadata.general_desc)
        self.special = [(Description(getattr(metadata, name)), kind) for name, kind in SPECIAL_TYPES]
        self.fixed_line = Description(metadata.fixed_line)
        self.mobile = Description(metadata.mobile)
        self.same_mobile_and_fixed_line = bool(metadata.same_mobile_and_fixed_line_pattern)

    def descriptions(self):
        return [self.general, *(d for d, _ in self.special), self.fixed_line, self.mobile]


def regions():
    """The regions of country code 1 in the order region_code_for_number tries them."""
    return [Region(code) for code in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[1]]


class Classifier:
    """Builds the trie: nodes of ten children, each a node index or a leaf (a class)."""

    def __init__(self, regions):
        self.regions = regions
        self.descriptions = [d for region in regions for d in region.descriptions()]
        self.classes = [None]  # class 0: not a valid number
        self.class_index = {None: 0}
        self.nodes = []  # each a tuple of ten ("node", index) or ("leaf", class)
        self.node_index = {}
        self.memo = {}

    def build(self):
        alive = tuple(frozenset(range(len(d.sequences))) for d in self.descriptions)
        leading = tuple(
            frozenset(range(len(r.leading))) if r.leading is not None else frozenset() for r in self.regions
        )
        matched = tuple(False for _ in self.regions)
        root = self._walk(0, alive, leading, matched)
        if root[0] != "node":
            raise PatternError("every number gets the same verdict")
        return root[1]

    def _walk(self, depth, alive, leading, matched):
        key = (depth, alive, leading, matched)
        if key in self.memo:
            return self.memo[key]
        if depth == NATIONAL_LENGTH:
            result = ("leaf", self._class(alive, matched))
        else:
            children = []
            for digit in "0123456789":
                next_alive = tuple(
                    frozenset(i for i in live if digit in d.sequences[i][depth])
                    for d, live in zip(self.descriptions, alive)
                )
                next_leading, next_matched = [], []
                for region, live, done in zip(self.regions, leading, matched):
                    still = frozenset(
                        i for i in live if len(region.leading[i]) > depth and digit in region.leading[i][depth]
                    )
                    done = done or any(len(region.leading[i]) == depth + 1 for i in still)
                    next_leading.append(frozenset() if done else still)
                    next_matched.append(done)
                children.append(self._walk(depth + 1, next_alive, tuple(next_leading), tuple(next_matched)))
            if all(child == children[0] for child in children) and children[0][0] == "leaf":
                result = children[0]
            else:
                result = ("node", self._node(tuple(children)))
        self.memo[key] = result
        return result

    def _node(self, children):
        if children not in self.node_index:
            self.node_index[children] = len(self.nodes)
            self.nodes.append(children)
        return self.node_index[children]

    def _class(self, alive, matched):
        """region_code_for_number, then number_type in that region; None when not valid."""
        position = 0
        for region, leading_matched in zip(self.regions, matched):
            count = len(region.descriptions())
            kind = self._type(region, alive[position : position + count])
            position += count
            if region.leading is not None:
                if not leading_matched:
                    continue
            elif kind is None:
                continue
            if kind is None:
                return 0
            value = (region.code, kind)
            if value not in self.class_index:
                self.class_index[value] = len(self.classes)
                self.classes.append(value)
            return self.class_index[value]
        return 0

    @staticmethod
    def _type(region, alive):
        """_number_type_helper, given which of the region's descriptions fully match."""
        general, *special_alive = alive[: 1 + len(region.special)]
        fixed_line, mobile = alive[1 + len(region.special) :]
        if not general:
            return None
        for live, (_, kind) in zip(special_alive, region.special):
            if live:
                return kind
        if fixed_line:
            if region.same_mobile_and_fixed_line or mobile:
                return "fixedLineOrMobile"
            return "fixedLine"
        if not region.same_mobile_and_fixed_line and mobile:
            return "mobile"
        return None
