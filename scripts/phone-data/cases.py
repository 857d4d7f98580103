"""Writes the numbers scripts/phone-data-check compares our parser on, with the verdict of the
phonenumbers package itself (its public API, not the generator's reading of the metadata).

Every area code 000-999 with 100 exchanges each, and 100,000 random ten-digit numbers, from a
fixed seed: one line each, `DIGITS REGION TYPE` for a valid number, `DIGITS -` for an invalid
one, after a first line `# phonenumbers VERSION`.
Usage: cases.py OUTPUT
"""

import random
import sys

import phonenumbers
from phonenumbers import PhoneNumberType

TYPE_NAMES = {
    PhoneNumberType.FIXED_LINE: "fixedLine",
    PhoneNumberType.MOBILE: "mobile",
    PhoneNumberType.FIXED_LINE_OR_MOBILE: "fixedLineOrMobile",
    PhoneNumberType.TOLL_FREE: "tollFree",
    PhoneNumberType.PREMIUM_RATE: "premiumRate",
    PhoneNumberType.SHARED_COST: "sharedCost",
    PhoneNumberType.VOIP: "voip",
    PhoneNumberType.PERSONAL_NUMBER: "personalNumber",
    PhoneNumberType.PAGER: "pager",
    PhoneNumberType.UAN: "uan",
    PhoneNumberType.VOICEMAIL: "voicemail",
}
SEED = 20_260_101
EXCHANGES_PER_AREA_CODE = 100
RANDOM_NUMBERS = 100_000


def numbers():
    rng = random.Random(SEED)
    for area_code in range(1000):
        for exchange in rng.sample(range(1000), EXCHANGES_PER_AREA_CODE):
            yield f"{area_code:03d}{exchange:03d}{rng.randrange(10_000):04d}"
    for _ in range(RANDOM_NUMBERS):
        yield f"{rng.randrange(10**10):010d}"


def verdict(digits):
    number = phonenumbers.parse("+1" + digits, None)
    if not phonenumbers.is_valid_number(number):
        return "-"
    region = phonenumbers.region_code_for_number(number)
    return f"{region} {TYPE_NAMES[phonenumbers.number_type(number)]}"


def main():
    with open(sys.argv[1], "w") as output:
        output.write(f"# phonenumbers {phonenumbers.__version__}\n")
        for digits in numbers():
            output.write(f"{digits} {verdict(digits)}\n")


if __name__ == "__main__":
    main()
