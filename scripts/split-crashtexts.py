#!/usr/bin/env python3
"""The fixed-seed, kind-stratified tune/holdout split of Fixtures/crashtexts (issue 48).

The split was made once, before any rule was tuned on the texts; this script is kept so that
anyone can check that the parts in the manifest are the seeded split and not a hand-picked one:

    scripts/split-crashtexts.py            # check manifest.json against the split (exit 1 if not)
    scripts/split-crashtexts.py --print    # print the part of every id

The split depends only on the ids, their kinds, the seed and the holdout size: every kind with
at least two texts gets at least one text in each part, the holdout gets its share of every kind
(largest remainder, ties broken by the seeded generator), and within a kind the seeded generator
picks which texts are held out.

The second gathering (ids `h2-NNN` and `h2t-NNN`, README.md) was split on its own, once, before
any rule saw it: its numbers shuffled by a generator seeded with SECOND_SEED, the first
SECOND_TUNE_SIZE of them went to the tune part and the rest to the holdout2 part. The third
gathering (ids `h3-NNN` and `h3t-NNN`) was split the same way with THIRD_SEED and THIRD_TUNE_SIZE,
the rest going to the holdout3 part, the fourth (ids `h4-NNN` and `h4t-NNN`) with FOURTH_SEED and
FOURTH_TUNE_SIZE, the rest going to the holdout4 part, the fifth (ids `h5-NNN` and `h5t-NNN`) with
FIFTH_SEED and FIFTH_TUNE_SIZE, the rest going to the holdout5 part, the sixth (ids `h6-NNN` and
`h6t-NNN`) with SIXTH_SEED and SIXTH_TUNE_SIZE, the rest going to the holdout6 part, the seventh
(ids `h7-NNN` and `h7t-NNN`) with SEVENTH_SEED and SEVENTH_TUNE_SIZE, the rest going to the holdout7 part, the
eighth (ids `h8-NNN` and `h8t-NNN`) with EIGHTH_SEED and EIGHTH_TUNE_SIZE, the rest going to the holdout8 part, and the
ninth (ids `h9-NNNN` and `h9t-NNNN`, four-digit numbers from 1001) with NINTH_SEED and NINTH_TUNE_SIZE, the rest going to
the holdout9 part, the tenth (ids `h10-NNNN` and `h10t-NNNN`, four-digit numbers from 1101) with TENTH_SEED and
TENTH_TUNE_SIZE, the rest going to the holdout10 part, and the eleventh (ids `h11-NNNN` and `h11t-NNNN`, four-digit
numbers from 1201) with ELEVENTH_SEED and ELEVENTH_TUNE_SIZE, the rest going to the holdout11 part, and the twelfth (ids
`h12-NNNN` and `h12t-NNNN`, four-digit numbers from 1301) with TWELFTH_SEED and TWELFTH_TUNE_SIZE, the rest going to the
holdout12 part, and the thirteenth (ids `h13-NNNN` and `h13t-NNNN`, four-digit numbers from 1401) with THIRTEENTH_SEED and
THIRTEENTH_TUNE_SIZE, the rest going to the holdout13 part, and the fourteenth (ids `h14-NNNN` and `h14t-NNNN`, four-digit
numbers from 1501) with FOURTEENTH_SEED and FOURTEENTH_TUNE_SIZE, the rest going to the holdout14 part, and the fifteenth (ids
`h15-NNNN` and `h15t-NNNN`, four-digit numbers from 1601) with FIFTEENTH_SEED and FIFTEENTH_TUNE_SIZE, the rest going to the
holdout15 part, and the sixteenth (ids `h16-NNNN` and `h16t-NNNN`, four-digit numbers from 1701) with SIXTEENTH_SEED and
SIXTEENTH_TUNE_SIZE, the rest going to the holdout16 part, and the seventeenth (ids `h17-NNNN` and `h17t-NNNN`, four-digit
numbers from 1801) with SEVENTEENTH_SEED and SEVENTEENTH_TUNE_SIZE, the rest going to the holdout17 part, and the eighteenth
(ids `h18-NNNN` and `h18t-NNNN`, four-digit numbers from 1901) with EIGHTEENTH_SEED and EIGHTEENTH_TUNE_SIZE, the rest going to
the holdout18 part, and the nineteenth (ids `h19-NNNN` and `h19t-NNNN`, four-digit numbers from 2001) with NINETEENTH_SEED and
NINETEENTH_TUNE_SIZE, the rest going to the holdout19 part, and the twentieth (ids `h20-NNNN` and `h20t-NNNN`, four-digit numbers
from 2101) with TWENTIETH_SEED and TWENTIETH_TUNE_SIZE, the rest going to the holdout20 part, and the twenty-first (ids
`h21-NNNN` and `h21t-NNNN`, four-digit numbers from 2201) with TWENTY_FIRST_SEED and TWENTY_FIRST_TUNE_SIZE, the rest going to
the holdout21 part, and the twenty-second (ids `h22-NNNN` and `h22t-NNNN`, four-digit numbers from 2301) with TWENTY_SECOND_SEED
and TWENTY_SECOND_TUNE_SIZE, the rest going to the holdout22 part, and the twenty-third (ids `h23-NNNN` and `h23t-NNNN`,
four-digit numbers from 2401) with TWENTY_THIRD_SEED and TWENTY_THIRD_TUNE_SIZE, the rest going to the holdout23 part, and the
twenty-fourth (ids `h24-NNNN` and `h24t-NNNN`, four-digit numbers from 2501) with TWENTY_FOURTH_SEED and TWENTY_FOURTH_TUNE_SIZE,
the rest going to the holdout24 part, and the twenty-fifth (ids `h25-NNNN` and `h25t-NNNN`, four-digit numbers from 2601) with
TWENTY_FIFTH_SEED and TWENTY_FIFTH_TUNE_SIZE, the rest going to the holdout25 part, and the twenty-sixth (ids `h26-NNNN` and
`h26t-NNNN`, four-digit numbers from 2701) with TWENTY_SIXTH_SEED and TWENTY_SIXTH_TUNE_SIZE, the rest going to the holdout26 part,
and the twenty-seventh (ids `h27-NNNN` and `h27t-NNNN`, four-digit numbers from 2801) with TWENTY_SEVENTH_SEED and
TWENTY_SEVENTH_TUNE_SIZE, the rest going to the holdout27 part, the twenty-eighth (ids `h28-NNNN` and `h28t-NNNN`,
four-digit numbers from 2901) with TWENTY_EIGHTH_SEED and TWENTY_EIGHTH_TUNE_SIZE, the rest going to the holdout28 part, and the
twenty-ninth (ids `h29-NNNN` and `h29t-NNNN`, four-digit numbers from 3001) with TWENTY_NINTH_SEED and TWENTY_NINTH_TUNE_SIZE, the
rest going to the holdout29 part. A later gathering's ids are told apart by the part before the first `-` (`h1` is no gathering's
prefix, so `h10`, `h11`, `h12`, `h13`, `h14`, `h15`, `h16`, `h17`, `h18` and `h19` are never taken for a first-gathering id, and
`h20`, `h21`, `h22`, `h23`, `h24`, `h25`, `h26`, `h27`, `h28` and `h29` are never taken for the second gathering's `h2`).
"""

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

SEED = 48
HOLDOUT_SIZE = 50
SECOND_SEED = 4802
SECOND_TUNE_SIZE = 10
THIRD_SEED = 4803
THIRD_TUNE_SIZE = 8
FOURTH_SEED = 4804
FOURTH_TUNE_SIZE = 6
FIFTH_SEED = 4805
FIFTH_TUNE_SIZE = 6
SIXTH_SEED = 4806
SIXTH_TUNE_SIZE = 6
SEVENTH_SEED = 4807
SEVENTH_TUNE_SIZE = 6
EIGHTH_SEED = 4808
EIGHTH_TUNE_SIZE = 6
NINTH_SEED = 4809
NINTH_TUNE_SIZE = 6
TENTH_SEED = 4810
TENTH_TUNE_SIZE = 6
ELEVENTH_SEED = 4811
ELEVENTH_TUNE_SIZE = 6
TWELFTH_SEED = 4812
TWELFTH_TUNE_SIZE = 6
THIRTEENTH_SEED = 4813
THIRTEENTH_TUNE_SIZE = 6
FOURTEENTH_SEED = 4814
FOURTEENTH_TUNE_SIZE = 6
FIFTEENTH_SEED = 4815
FIFTEENTH_TUNE_SIZE = 6
SIXTEENTH_SEED = 4816
SIXTEENTH_TUNE_SIZE = 6
SEVENTEENTH_SEED = 4817
SEVENTEENTH_TUNE_SIZE = 6
EIGHTEENTH_SEED = 4818
EIGHTEENTH_TUNE_SIZE = 6
NINETEENTH_SEED = 4819
NINETEENTH_TUNE_SIZE = 6
TWENTIETH_SEED = 4820
TWENTIETH_TUNE_SIZE = 6
TWENTY_FIRST_SEED = 4821
TWENTY_FIRST_TUNE_SIZE = 6
TWENTY_SECOND_SEED = 4822
TWENTY_SECOND_TUNE_SIZE = 6
TWENTY_THIRD_SEED = 4823
TWENTY_THIRD_TUNE_SIZE = 6
TWENTY_FOURTH_SEED = 4824
TWENTY_FOURTH_TUNE_SIZE = 6
TWENTY_FIFTH_SEED = 4825
TWENTY_FIFTH_TUNE_SIZE = 6
TWENTY_SIXTH_SEED = 4826
TWENTY_SIXTH_TUNE_SIZE = 6
TWENTY_SEVENTH_SEED = 4827
TWENTY_SEVENTH_TUNE_SIZE = 6
TWENTY_EIGHTH_SEED = 4828
TWENTY_EIGHTH_TUNE_SIZE = 6
TWENTY_NINTH_SEED = 4829
TWENTY_NINTH_TUNE_SIZE = 6
MANIFEST = Path(__file__).resolve().parent.parent / "Fixtures" / "crashtexts" / "manifest.json"


def split(entries, seed=SEED, holdout_size=HOLDOUT_SIZE):
    """Map every id to "tune" or "holdout". `entries` is a list of (id, kind)."""
    rng = random.Random(seed)
    by_kind = defaultdict(list)
    for identifier, kind in sorted(entries):
        by_kind[kind].append(identifier)
    total = sum(len(ids) for ids in by_kind.values())
    if not 0 < holdout_size < total:
        raise ValueError(f"holdout size {holdout_size} does not fit {total} texts")

    kinds = sorted(by_kind)
    share = {kind: len(by_kind[kind]) * holdout_size / total for kind in kinds}
    lowest = {kind: 1 if len(by_kind[kind]) >= 2 else 0 for kind in kinds}
    highest = {kind: len(by_kind[kind]) - 1 if len(by_kind[kind]) >= 2 else 1 for kind in kinds}
    count = {kind: min(max(math.floor(share[kind]), lowest[kind]), highest[kind]) for kind in kinds}
    tiebreak = {kind: rng.random() for kind in kinds}

    while sum(count.values()) != holdout_size:
        growing = sum(count.values()) < holdout_size
        if growing:
            open_kinds = [k for k in kinds if count[k] < highest[k]]
            pick = max(open_kinds, key=lambda k: (share[k] - count[k], tiebreak[k]))
            count[pick] += 1
        else:
            open_kinds = [k for k in kinds if count[k] > lowest[k]]
            pick = min(open_kinds, key=lambda k: (share[k] - count[k], tiebreak[k]))
            count[pick] -= 1

    parts = {}
    for kind in kinds:
        ids = list(by_kind[kind])
        held = set(rng.sample(ids, count[kind]))
        for identifier in ids:
            parts[identifier] = "holdout" if identifier in held else "tune"
    return parts


def split_second(identifiers, seed=SECOND_SEED, tune_size=SECOND_TUNE_SIZE, held_part="holdout2"):
    """Map every id of a later gathering to "tune" or its held part by its number (`h2-301`, `h2t-301`, `h9-1001`).

    The numbers are sorted as numbers, so that three- and four-digit ids shuffle in their numeric order.
    """
    numbers = sorted((identifier.split("-", 1)[1] for identifier in identifiers), key=int)
    order = list(numbers)
    random.Random(seed).shuffle(order)
    tuned = set(order[:tune_size])
    return {identifier: "tune" if identifier.split("-", 1)[1] in tuned else held_part for identifier in identifiers}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--print", action="store_true", help="print the part of every id instead of checking")
    arguments = parser.parse_args()

    texts = json.loads(arguments.manifest.read_text(encoding="utf-8"))["texts"]
    def gathering(text):
        """The gathering prefix of an id (`h2` for `h2-301` and `h2t-301`, `h10` for `h10t-1101`), "" for the first's."""
        head = text["id"].split("-", 1)[0]
        return head[:-1] if head.endswith("t") else head if head.startswith("h") else ""

    first = [text for text in texts if gathering(text) == ""]
    second = [text for text in texts if gathering(text) == "h2"]
    third = [text for text in texts if gathering(text) == "h3"]
    fourth = [text for text in texts if gathering(text) == "h4"]
    fifth = [text for text in texts if gathering(text) == "h5"]
    sixth = [text for text in texts if gathering(text) == "h6"]
    seventh = [text for text in texts if gathering(text) == "h7"]
    eighth = [text for text in texts if gathering(text) == "h8"]
    ninth = [text for text in texts if gathering(text) == "h9"]
    tenth = [text for text in texts if gathering(text) == "h10"]
    eleventh = [text for text in texts if gathering(text) == "h11"]
    twelfth = [text for text in texts if gathering(text) == "h12"]
    thirteenth = [text for text in texts if gathering(text) == "h13"]
    fourteenth = [text for text in texts if gathering(text) == "h14"]
    fifteenth = [text for text in texts if gathering(text) == "h15"]
    sixteenth = [text for text in texts if gathering(text) == "h16"]
    seventeenth = [text for text in texts if gathering(text) == "h17"]
    eighteenth = [text for text in texts if gathering(text) == "h18"]
    nineteenth = [text for text in texts if gathering(text) == "h19"]
    twentieth = [text for text in texts if gathering(text) == "h20"]
    twenty_first = [text for text in texts if gathering(text) == "h21"]
    twenty_second = [text for text in texts if gathering(text) == "h22"]
    twenty_third = [text for text in texts if gathering(text) == "h23"]
    twenty_fourth = [text for text in texts if gathering(text) == "h24"]
    twenty_fifth = [text for text in texts if gathering(text) == "h25"]
    twenty_sixth = [text for text in texts if gathering(text) == "h26"]
    twenty_seventh = [text for text in texts if gathering(text) == "h27"]
    twenty_eighth = [text for text in texts if gathering(text) == "h28"]
    twenty_ninth = [text for text in texts if gathering(text) == "h29"]
    known = (
        "", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10", "h11", "h12", "h13", "h14", "h15", "h16", "h17", "h18", "h19",
        "h20", "h21", "h22", "h23", "h24", "h25", "h26", "h27", "h28", "h29",
    )
    unknown = [text["id"] for text in texts if gathering(text) not in known]
    if unknown:
        print(f"ids of no known gathering: {unknown}", file=sys.stderr)
        return 1
    parts = split([(text["id"], text["kind"]) for text in first])
    parts.update(split_second([text["id"] for text in second]))
    parts.update(split_second([text["id"] for text in third], THIRD_SEED, THIRD_TUNE_SIZE, "holdout3"))
    parts.update(split_second([text["id"] for text in fourth], FOURTH_SEED, FOURTH_TUNE_SIZE, "holdout4"))
    parts.update(split_second([text["id"] for text in fifth], FIFTH_SEED, FIFTH_TUNE_SIZE, "holdout5"))
    parts.update(split_second([text["id"] for text in sixth], SIXTH_SEED, SIXTH_TUNE_SIZE, "holdout6"))
    parts.update(split_second([text["id"] for text in seventh], SEVENTH_SEED, SEVENTH_TUNE_SIZE, "holdout7"))
    parts.update(split_second([text["id"] for text in eighth], EIGHTH_SEED, EIGHTH_TUNE_SIZE, "holdout8"))
    parts.update(split_second([text["id"] for text in ninth], NINTH_SEED, NINTH_TUNE_SIZE, "holdout9"))
    parts.update(split_second([text["id"] for text in tenth], TENTH_SEED, TENTH_TUNE_SIZE, "holdout10"))
    parts.update(split_second([text["id"] for text in eleventh], ELEVENTH_SEED, ELEVENTH_TUNE_SIZE, "holdout11"))
    parts.update(split_second([text["id"] for text in twelfth], TWELFTH_SEED, TWELFTH_TUNE_SIZE, "holdout12"))
    parts.update(split_second([text["id"] for text in thirteenth], THIRTEENTH_SEED, THIRTEENTH_TUNE_SIZE, "holdout13"))
    parts.update(split_second([text["id"] for text in fourteenth], FOURTEENTH_SEED, FOURTEENTH_TUNE_SIZE, "holdout14"))
    parts.update(split_second([text["id"] for text in fifteenth], FIFTEENTH_SEED, FIFTEENTH_TUNE_SIZE, "holdout15"))
    parts.update(split_second([text["id"] for text in sixteenth], SIXTEENTH_SEED, SIXTEENTH_TUNE_SIZE, "holdout16"))
    parts.update(split_second([text["id"] for text in seventeenth], SEVENTEENTH_SEED, SEVENTEENTH_TUNE_SIZE, "holdout17"))
    parts.update(split_second([text["id"] for text in eighteenth], EIGHTEENTH_SEED, EIGHTEENTH_TUNE_SIZE, "holdout18"))
    parts.update(split_second([text["id"] for text in nineteenth], NINETEENTH_SEED, NINETEENTH_TUNE_SIZE, "holdout19"))
    parts.update(split_second([text["id"] for text in twentieth], TWENTIETH_SEED, TWENTIETH_TUNE_SIZE, "holdout20"))
    parts.update(split_second([text["id"] for text in twenty_first], TWENTY_FIRST_SEED, TWENTY_FIRST_TUNE_SIZE, "holdout21"))
    parts.update(split_second([text["id"] for text in twenty_second], TWENTY_SECOND_SEED, TWENTY_SECOND_TUNE_SIZE, "holdout22"))
    parts.update(split_second([text["id"] for text in twenty_third], TWENTY_THIRD_SEED, TWENTY_THIRD_TUNE_SIZE, "holdout23"))
    parts.update(split_second([text["id"] for text in twenty_fourth], TWENTY_FOURTH_SEED, TWENTY_FOURTH_TUNE_SIZE, "holdout24"))
    parts.update(split_second([text["id"] for text in twenty_fifth], TWENTY_FIFTH_SEED, TWENTY_FIFTH_TUNE_SIZE, "holdout25"))
    parts.update(split_second([text["id"] for text in twenty_sixth], TWENTY_SIXTH_SEED, TWENTY_SIXTH_TUNE_SIZE, "holdout26"))
    parts.update(split_second([text["id"] for text in twenty_seventh], TWENTY_SEVENTH_SEED, TWENTY_SEVENTH_TUNE_SIZE, "holdout27"))
    parts.update(split_second([text["id"] for text in twenty_eighth], TWENTY_EIGHTH_SEED, TWENTY_EIGHTH_TUNE_SIZE, "holdout28"))
    parts.update(split_second([text["id"] for text in twenty_ninth], TWENTY_NINTH_SEED, TWENTY_NINTH_TUNE_SIZE, "holdout29"))
    if arguments.print:
        for identifier in sorted(parts):
            print(identifier, parts[identifier])
        return 0
    wrong = [text["id"] for text in texts if text["part"] != parts[text["id"]]]
    misplaced = [text["id"] for text in texts if not text["file"].startswith(text["part"] + "/")]
    if wrong or misplaced:
        print(f"not the seeded split: parts differ for {wrong}, files misplaced for {misplaced}", file=sys.stderr)
        return 1
    held = sum(1 for part in parts.values() if part == "holdout")
    held_second = sum(1 for part in parts.values() if part == "holdout2")
    held_third = sum(1 for part in parts.values() if part == "holdout3")
    held_fourth = sum(1 for part in parts.values() if part == "holdout4")
    held_fifth = sum(1 for part in parts.values() if part == "holdout5")
    held_sixth = sum(1 for part in parts.values() if part == "holdout6")
    held_seventh = sum(1 for part in parts.values() if part == "holdout7")
    held_eighth = sum(1 for part in parts.values() if part == "holdout8")
    held_ninth = sum(1 for part in parts.values() if part == "holdout9")
    held_tenth = sum(1 for part in parts.values() if part == "holdout10")
    held_eleventh = sum(1 for part in parts.values() if part == "holdout11")
    held_twelfth = sum(1 for part in parts.values() if part == "holdout12")
    held_thirteenth = sum(1 for part in parts.values() if part == "holdout13")
    held_fourteenth = sum(1 for part in parts.values() if part == "holdout14")
    held_fifteenth = sum(1 for part in parts.values() if part == "holdout15")
    held_sixteenth = sum(1 for part in parts.values() if part == "holdout16")
    held_seventeenth = sum(1 for part in parts.values() if part == "holdout17")
    held_eighteenth = sum(1 for part in parts.values() if part == "holdout18")
    held_nineteenth = sum(1 for part in parts.values() if part == "holdout19")
    held_twentieth = sum(1 for part in parts.values() if part == "holdout20")
    held_twenty_first = sum(1 for part in parts.values() if part == "holdout21")
    held_twenty_second = sum(1 for part in parts.values() if part == "holdout22")
    held_twenty_third = sum(1 for part in parts.values() if part == "holdout23")
    held_twenty_fourth = sum(1 for part in parts.values() if part == "holdout24")
    held_twenty_fifth = sum(1 for part in parts.values() if part == "holdout25")
    held_twenty_sixth = sum(1 for part in parts.values() if part == "holdout26")
    held_twenty_seventh = sum(1 for part in parts.values() if part == "holdout27")
    held_twenty_eighth = sum(1 for part in parts.values() if part == "holdout28")
    held_twenty_ninth = sum(1 for part in parts.values() if part == "holdout29")
    tuned = (
        len(parts) - held - held_second - held_third - held_fourth - held_fifth - held_sixth - held_seventh - held_eighth
        - held_ninth - held_tenth - held_eleventh - held_twelfth - held_thirteenth - held_fourteenth
        - held_fifteenth - held_sixteenth - held_seventeenth - held_eighteenth - held_nineteenth - held_twentieth
        - held_twenty_first - held_twenty_second - held_twenty_third - held_twenty_fourth - held_twenty_fifth
        - held_twenty_sixth - held_twenty_seventh - held_twenty_eighth - held_twenty_ninth
    )
    print(
        f"manifest matches the seeded splits (seeds {SEED}, {SECOND_SEED}, {THIRD_SEED}, {FOURTH_SEED}, {FIFTH_SEED}, "
        f"{SIXTH_SEED}, {SEVENTH_SEED}, {EIGHTH_SEED}, {NINTH_SEED}, {TENTH_SEED}, {ELEVENTH_SEED}, {TWELFTH_SEED}, {THIRTEENTH_SEED}, "
        f"{FOURTEENTH_SEED}, {FIFTEENTH_SEED}, {SIXTEENTH_SEED}, {SEVENTEENTH_SEED}, {EIGHTEENTH_SEED}, {NINETEENTH_SEED}, "
        f"{TWENTIETH_SEED}, {TWENTY_FIRST_SEED}, {TWENTY_SECOND_SEED}, {TWENTY_THIRD_SEED}, {TWENTY_FOURTH_SEED}, "
        f"{TWENTY_FIFTH_SEED}, {TWENTY_SIXTH_SEED}, {TWENTY_SEVENTH_SEED}, {TWENTY_EIGHTH_SEED}, {TWENTY_NINTH_SEED}): "
        f"{tuned} tune, {held} holdout, "
        f"{held_second} holdout2, {held_third} holdout3, {held_fourth} holdout4, {held_fifth} holdout5, {held_sixth} holdout6, "
        f"{held_seventh} holdout7, {held_eighth} holdout8, {held_ninth} holdout9, {held_tenth} holdout10, {held_eleventh} holdout11, "
        f"{held_twelfth} holdout12, {held_thirteenth} holdout13, {held_fourteenth} holdout14, "
        f"{held_fifteenth} holdout15, {held_sixteenth} holdout16, {held_seventeenth} holdout17, {held_eighteenth} holdout18, "
        f"{held_nineteenth} holdout19, {held_twentieth} holdout20, {held_twenty_first} holdout21, "
        f"{held_twenty_second} holdout22, {held_twenty_third} holdout23, {held_twenty_fourth} holdout24, "
        f"{held_twenty_fifth} holdout25, {held_twenty_sixth} holdout26, {held_twenty_seventh} holdout27, "
        f"{held_twenty_eighth} holdout28, {held_twenty_ninth} holdout29"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
